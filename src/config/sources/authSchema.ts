import { z } from 'zod';

const secret = z.string().min(1, 'must not be empty');
/** A value sent as a header's: a line break would end the header (and start another), a NUL is refused by the HTTP client. */
export const headerSecret = secret.refine((value) => !/[\r\n\0]/.test(value), 'must not contain a line break (CR or LF) or a NUL: it is sent in a request header');
/** A header or query parameter name: a token, so it cannot split a header or a query. */
const parameterName = z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'must be a header or query parameter name (letters, digits, "-", "_", …)');

/**
 * How a source's requests carry its credentials. `bearer` is the contract's (and `apiKey`'s
 * shorthand); `query` is Last.fm's (`api_key`) and Etherscan's (`apikey`).
 */
export const authSchema = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ type: z.literal('bearer'), value: headerSecret }),
    /** A key in a header of its own, e.g. `X-API-Key`. */
    z.strictObject({ type: z.literal('header'), name: parameterName, value: headerSecret }),
    /** A key in the query string: masked wherever a request URL is shown or stored. */
    z.strictObject({ type: z.literal('query'), name: parameterName, value: secret }),
    z.strictObject({ type: z.literal('basic'), username: z.string().min(1, 'must not be empty').refine((name) => !name.includes(':'), 'must not contain ":" (HTTP basic auth splits on it)'), password: secret }),
    z.strictObject({ type: z.literal('none') }),
  ],
  { error: (issue) => (issue.code === 'invalid_union' ? 'must have a type: bearer, header, query, basic or none' : undefined) },
);

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
