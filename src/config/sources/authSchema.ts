import { z } from 'zod';

const secret = z.string().min(1, 'must not be empty');
/** A value sent as a header's: a line break would end the header (and start another), a NUL is refused by the HTTP client. */
export const headerSecret = secret.refine((value) => !/[\r\n\0]/.test(value), 'must not contain a line break (CR or LF) or a NUL: it is sent in a request header');
/** A header or query parameter name: a token, so it cannot split a header or a query. */
const parameterName = z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'must be a header or query parameter name (letters, digits, "-", "_", …)');

const keyValue = { description: 'The key (from the environment: `${NAME}`).', examples: ['${API_KEY}'] };
const authType = <Type extends string>(type: Type) => z.literal(type).describe('How the key is sent: `bearer`, `header`, `query`, `basic` or `none`.');

export const authSchema = z
  .discriminatedUnion(
    'type',
    [
      z.strictObject({ type: authType('bearer'), value: headerSecret.meta(keyValue) }).describe('`Authorization: Bearer <value>`: the contract\'s (`apiKey` is short for it).'),
      z.strictObject({ type: authType('header'), name: parameterName.meta({ description: 'The header.', examples: ['X-API-Key'] }), value: headerSecret.meta(keyValue) }).describe('The key in a header of its own.'),
      z
        .strictObject({ type: authType('query'), name: parameterName.describe("The query parameter: Last.fm's `api_key`, Etherscan's `apikey`."), value: secret.meta(keyValue) })
        .describe('The key in the query string: shown as `***` in every URL feedsync logs or stores (`envelopes.request_url`).'),
      z
        .strictObject({
          type: authType('basic'),
          username: z.string().min(1, 'must not be empty').refine((name) => !name.includes(':'), 'must not contain ":" (HTTP basic auth splits on it)').meta({ description: 'The user name (no `:`).', examples: ['${API_USER}'] }),
          password: secret.meta({ description: 'The password (from the environment: `${NAME}`).', examples: ['${API_PASSWORD}'] }),
        })
        .describe('HTTP basic auth.'),
      z.strictObject({ type: authType('none') }).describe('An API without a key.'),
    ],
    { error: (issue) => (issue.code === 'invalid_union' ? 'must have a type: bearer, header, query, basic or none' : undefined) },
  )
  .meta({ id: 'auth', description: 'How the source\'s requests carry its key, by `type`: `bearer`, `header`, `query`, `basic` or `none`.' });

export type AuthConfig = z.output<typeof authSchema>;
export type AuthType = AuthConfig['type'];

/** The values a source's auth must never let reach a log, table, notice or terminal: whatever the style, its `value` and `password`. */
export function authSecrets(auth: AuthConfig): string[] {
  const { value, username, password } = auth as Partial<Record<'value' | 'username' | 'password', string>>;
  const secrets = [value, password].filter((field) => field !== undefined);
  // Basic auth sends base64 of "user:password"; the scrubber removes that form of each secret.
  if (username !== undefined && password !== undefined) secrets.push(`${username}:${password}`);
  return secrets;
}
