/** U+0000, which Postgres holds in neither `text` nor `jsonb`: the ways it is taken out before a write. */

/** A `\u0000` escape in JSON text, not preceded by an escaped backslash of its own; group 1 keeps the backslashes before it. */
export const NUL_ESCAPE = /(?<!\\)((?:\\\\)*)\\u0000/g;

/** Text without its NUL characters: for `text` columns (a message, a cursor value, an error). */
export function withoutNulChars(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', '') : text;
}

/** JSON text without its NUL escapes, which jsonb refuses (a checkpoint holding an upstream's cursor token, say). */
export function withoutNulEscapes(json: string): string {
  return json.includes('\\u0000') ? json.replace(NUL_ESCAPE, '$1') : json;
}
