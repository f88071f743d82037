/**
 * A secret in each encoding a hostile upstream may echo it in, and a search for any of them in
 * stored text: written apart from src's own list of forms, so a test does not check the scrubber
 * against itself.
 */

const hexOf = (text: string) => Buffer.from(text).toString('hex');
const everyByte = (text: string) => hexOf(text).replace(/../g, '%$&');

/** Each character as a JSON `\uXXXX` escape: valid only inside a JSON string. */
export const unicodeEscaped = (text: string): string => [...text].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

/**
 * The secret echoed in plain text forms (no JSON escapes): base64 of longer texts holding it at
 * byte offsets 0, 1 and 2 of a group (`Bearer ` puts it at 1), base64url without padding, hex in
 * both cases, every byte %-encoded in both cases.
 */
export function echoedForms(secret: string): string[] {
  return [
    secret,
    Buffer.from(`${secret} was refused`).toString('base64'),
    Buffer.from(`Bearer ${secret}`).toString('base64'),
    Buffer.from(`to ${secret}`).toString('base64'),
    Buffer.from(`token=${secret}&`).toString('base64url'),
    hexOf(secret),
    hexOf(secret).toUpperCase(),
    everyByte(secret),
    everyByte(secret).toUpperCase(),
  ];
}

/**
 * What gives the secret away: as given, URL- and JSON-escaped, hex and %-encoded in both cases,
 * and each run of 8 characters of its base64 and base64url at every alignment (leaving the groups
 * it shares with what surrounds it), so that part of an encoded key left behind is found too.
 */
export function telltalesOf(secret: string): string[] {
  const base64Windows = [0, 1, 2].flatMap((offset) =>
    (['base64', 'base64url'] as const).flatMap((encoding) => {
      const inner = Buffer.from(`${'x'.repeat(offset)}${secret}`).toString(encoding).slice(8, -8);
      return Array.from({ length: Math.max(inner.length - 7, 0) }, (_, at) => inner.slice(at, at + 8));
    }),
  );
  return [...new Set([secret, encodeURIComponent(secret), unicodeEscaped(secret), hexOf(secret), hexOf(secret).toUpperCase(), everyByte(secret), everyByte(secret).toUpperCase(), ...base64Windows])];
}

/** Every telltale of any of `secrets` found in `text`, named by its secret's label. */
export function leaksIn(text: string, secrets: Record<string, string>): string[] {
  return Object.entries(secrets).flatMap(([label, secret]) => telltalesOf(secret).filter((telltale) => text.includes(telltale)).map((telltale) => `${label}: ${telltale}`));
}
