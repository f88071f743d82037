/**
 * How deep JSON may nest: well under what Postgres's `json` and `jsonb` input, JSON.stringify and
 * lossless-json each take (docs/benchmarks.md has the depths measured), and a page body's deeper
 * than a record's, leaving room for the envelope around its records, so that a record too deep is
 * refused alone, not with its page.
 */
export const MAX_RECORD_DEPTH = 1_000;
export const MAX_BODY_DEPTH = 2_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * How deep the JSON text `text` nests (`1`: 0, `[]`: 1, `{"a":[1]}`: 2) when that is deeper than
 * `limit`; undefined otherwise. Each level takes two characters at least, so a text of at most
 * twice the limit is not read: most are not. The scan is a loop, not a recursion, and counts
 * brackets outside strings only.
 */
export function depthBeyond(text: string, limit: number): number | undefined {
  if (text.length <= 2 * limit) return undefined;
  let depth = 0;
  let deepest = 0;
  for (let at = 0; at < text.length; at++) {
    const char = text.charCodeAt(at);
    if (char === QUOTE) at = closingQuote(text, at);
    else if (char === OPEN_BRACE || char === OPEN_BRACKET) deepest = Math.max(deepest, ++depth);
    else if (char === CLOSE_BRACE || char === CLOSE_BRACKET) depth--;
  }
  return deepest > limit ? deepest : undefined;
}

/** Where the string opened at `start` ends: its closing quote, the first not escaped (or the text's end). */
export function closingQuote(text: string, start: number): number {
  for (let at = text.indexOf('"', start + 1); at !== -1; at = text.indexOf('"', at + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
  return text.length;
}
