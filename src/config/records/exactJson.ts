import { isLosslessNumber, LosslessNumber, parse as parseLossless, stringify as stringifyLossless } from 'lossless-json';

/**
 * A number token native JSON.parse may not keep exactly: 16 digits or more (past 2^53, or past a
 * double's precision), an exponent, a fraction ending in 0 (jsonb keeps 1.50 as written), or -0.
 * Only a token after `:`, `,` or `[` counts, so digits in a string ("1000000000000000000") do not;
 * a string that happens to hold `: 1.50` only costs the slower parse of its page.
 */
const INEXACT_NUMBER = /(?:^|[:,[])\s*(?:-?(?:\d(?:\.?\d){15}|\d+(?:\.\d+)?[eE]|\d+\.\d*0(?!\d))|-0(?![.\d]))/;

/** Whether `raw` may hold a number token that native JSON.parse would not keep exactly. */
export function mayHoldInexactNumber(raw: string): boolean {
  return INEXACT_NUMBER.test(raw);
}

/** A number token as a JS number when that writes back to the same text; as its exact text otherwise. */
function exactNumber(text: string): number | LosslessNumber {
  const value = Number(text);
  return String(value) === text ? value : new LosslessNumber(text);
}

/**
 * The LosslessNumbers of a lossless parse and the objects and arrays holding one at any depth. An
 * object never added (every one of a natively parsed page) is not found at the cost of one lookup,
 * which keeps the common path of `stringifyJson` as fast as JSON.stringify; the marks go with the page.
 */
const holdsExact = new WeakSet<object>();

/** Marks each LosslessNumber in `value`, and every object and array holding one; whether `value` holds one. */
function markExact(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  let holds = isLosslessNumber(value);
  if (!holds) {
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      if (markExact(child)) holds = true;
    }
  }
  if (holds) holdsExact.add(value);
  return holds;
}

/**
 * Parses JSON keeping every number exactly: natively when no token may lose digits (most pages),
 * else with lossless-json, where only the tokens a JS number would change become LosslessNumbers.
 * A repeated key keeps its last value, as JSON.parse does (lossless-json would throw).
 */
export function parseJson(raw: string): unknown {
  if (!mayHoldInexactNumber(raw)) return JSON.parse(raw);
  const value = parseLossless(raw, null, { parseNumber: exactNumber, onDuplicateKey: ({ newValue }) => newValue });
  markExact(value);
  return value;
}

/** A scalar of parsed JSON as text: a string itself, a number as JS writes it, a LosslessNumber as the upstream wrote it; else undefined. */
export function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return isLosslessNumber(value) ? value.value : undefined;
}

/** A number of parsed JSON, a LosslessNumber as the nearest JS number (for counts and flags); else undefined. */
export function numberOf(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  return isLosslessNumber(value) ? Number(value.value) : undefined;
}

/** Whether `value` is a LosslessNumber: a number, not an object, to a reader of records. */
export const isExactNumber = isLosslessNumber;

/** Whether parsed JSON `value` is an object: not null, a list, or a number kept exactly. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !isExactNumber(value);
}

/** `value` as JSON text, a LosslessNumber written as the upstream wrote it; JSON.stringify for a value holding none. */
export function stringifyJson(value: unknown): string {
  // lossless-json writes undefined only for undefined or a function, which no parsed value is.
  return value !== null && typeof value === 'object' && holdsExact.has(value) ? stringifyLossless(value)! : JSON.stringify(value);
}
