import { closingQuote } from '../../config/records/jsonDepth.js';

/**
 * Postgres's `numeric`, which jsonb keeps every number as, holds at most 131,072 digits before
 * the decimal point and 16,383 after it (an exponent counted in); a number beyond refuses the
 * whole statement with "value overflows numeric format". JSON allows any.
 */
const MOST_INTEGER_DIGITS = 131_072;
const MOST_FRACTION_DIGITS = 16_383;

/** A number token: its integer digits, fraction digits and exponent. */
const NUMBER = /-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?/y;

/**
 * Only a number with an exponent of four digits or more, or written out longer than the fraction's
 * limit, can overflow. A number starts after `:`, `,` or `[`: so hex in a string ("0x3e4567")
 * does not make every explorer record scanned.
 */
const MAY_OVERFLOW = /[:,[]\s*-?\d+(?:\.\d+)?[eE][+-]?0*\d{4}/;

/** The first number of the JSON text `json` that jsonb cannot hold, as written; undefined when it holds them all. */
export function numberBeyondNumeric(json: string): string | undefined {
  if (json.length <= MOST_FRACTION_DIGITS && !MAY_OVERFLOW.test(json)) return undefined;
  for (let at = 0; at < json.length; at++) {
    const char = json.charCodeAt(at);
    if (char === 0x22) {
      at = closingQuote(json, at);
      continue;
    }
    if (char !== 0x2d && (char < 0x30 || char > 0x39)) continue;
    NUMBER.lastIndex = at;
    const match = NUMBER.exec(json);
    if (!match) continue;
    if (overflows(match[1]!, match[2] ?? '', Number(match[3] ?? 0))) return match[0];
    at = NUMBER.lastIndex - 1;
  }
  return undefined;
}

function overflows(integer: string, fraction: string, exponent: number): boolean {
  if (fraction.length - exponent > MOST_FRACTION_DIGITS) return true;
  const significant = integer.replace(/^0+/, '');
  // A zero has no integer digits, however large its exponent.
  if (significant === '' && /^0*$/.test(fraction)) return false;
  const integerDigits = significant === '' ? exponent - (fraction.length - fraction.replace(/^0+/, '').length) : significant.length + exponent;
  return integerDigits > MOST_INTEGER_DIGITS;
}
