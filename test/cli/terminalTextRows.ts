/*
 * Text from upstreams that reaches the terminal (error messages, run errors), one a row: the text,
 * and how it is printed. terminalText.test.ts runs them.
 */

export interface TerminalTextRow {
  what: string;
  text: string;
  printed: string;
}

/** Escape sequences and controls, removed. */
export const controlRows: TerminalTextRow[] = [
  { what: 'a CSI colour', text: 'bad \x1b[31mkey\x1b[0m', printed: 'bad key' },
  { what: 'an OSC title change ended by BEL', text: 'x\x1b]0;owned\x07y', printed: 'xy' },
  { what: 'an OSC hyperlink ended by ST', text: '\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\', printed: 'link' },
  { what: 'a short escape (reset)', text: 'a\x1bcb', printed: 'ab' },
  { what: 'a lone ESC at the end', text: 'a\x1b', printed: 'a' },
  { what: 'a carriage return that would overwrite the line', text: 'failed\rsucceeded', printed: 'failedsucceeded' },
  { what: 'a bell, a backspace and a NUL', text: 'a\x07b\x08c\x00d', printed: 'abcd' },
  { what: 'DEL and C1 controls (8-bit CSI)', text: 'a\x7fb\x9b31mc\x85d', printed: 'ab31mcd' },
];

/** Bidirectional controls and line separators, shown as their \u escape in text and in JSON. */
export const bidiRows: TerminalTextRow[] = [
  { what: 'a right-to-left override (U+202E)', text: 'run gnp\u202e.exe', printed: 'run gnp\\u202e.exe' },
  { what: 'a left-to-right override (U+202D)', text: 'a\u202db', printed: 'a\\u202db' },
  { what: 'a right-to-left embedding (U+202B)', text: 'a\u202bb', printed: 'a\\u202bb' },
  { what: 'an isolate and a mark', text: 'a\u2067b\u200fc', printed: 'a\\u2067b\\u200fc' },
  { what: 'an Arabic letter mark (U+061C)', text: 'a\u061cb', printed: 'a\\u061cb' },
  { what: 'a line separator', text: 'a\u2028b', printed: 'a\\u2028b' },
  { what: 'a paragraph separator', text: 'a\u2029b', printed: 'a\\u2029b' },
];
