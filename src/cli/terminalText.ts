/*
 * Text from upstreams (error messages, run errors) reaches the terminal. An escape sequence in it
 * could retitle the window, move the cursor or forge a line; printed, it is removed.
 */

/* eslint-disable no-control-regex -- matching control characters is the point */
/** ESC and what follows it: CSI (`ESC [ … final`), a string (OSC, DCS, SOS, PM, APC) up to BEL or ST, or a short sequence. */
const ESCAPE_SEQUENCE = /\x1b(?:\[[0-?]*[ -/]*[@-~]|[\]PX^_][^\x07\x1b]*(?:\x07|\x1b\\)?|[ -/]*[0-~])?/g;
/** C0 controls but tab and line feed (carriage return included: it overwrites a line), DEL, and C1. */
const CONTROL_CHARACTER = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;
/* eslint-enable no-control-regex */
/**
 * Bidirectional controls (U+202E turns `gnp.exe` into `exe.png`) and line separators: printed,
 * they would reorder or split what a person reads, so they are shown as their \u escape instead.
 */
const INVISIBLE_FORMAT = /[\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** DEL and C1, which JSON.stringify leaves as they are (it escapes only C0), and the invisible format characters. */
const UNESCAPED_IN_JSON = new RegExp(`[\\x7f-\\x9f]|${INVISIBLE_FORMAT.source}`, 'g');

const unicodeEscape = (character: string) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** `text` without escape sequences and control characters, bidi controls escaped; tabs and line breaks are kept. */
export function printableText(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, '').replace(CONTROL_CHARACTER, '').replace(INVISIBLE_FORMAT, unicodeEscape);
}

/** `text` made printable on one line (a table cell, a summary): a line break in it could forge a line. */
export function printableLine(text: string): string {
  return printableText(text).replace(/[\t\n]+/g, ' ');
}

/** JSON for stdout: still the same JSON, with DEL, C1 and bidi controls written as \u escapes so no terminal acts on them. */
export function terminalJson(value: unknown): string {
  return JSON.stringify(value).replace(UNESCAPED_IN_JSON, unicodeEscape);
}
