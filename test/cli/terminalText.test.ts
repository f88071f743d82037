import { describe, expect, it } from 'vitest';
import { formatTable } from '../../src/cli/printTable.js';
import { printableLine, printableText, terminalJson } from '../../src/cli/terminalText.js';

describe('printableText', () => {
  it.each([
    ['a CSI colour', 'bad \x1b[31mkey\x1b[0m', 'bad key'],
    ['an OSC title change ended by BEL', 'x\x1b]0;owned\x07y', 'xy'],
    ['an OSC hyperlink ended by ST', '\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\', 'link'],
    ['a short escape (reset)', 'a\x1bcb', 'ab'],
    ['a lone ESC at the end', 'a\x1b', 'a'],
    ['a carriage return that would overwrite the line', 'failed\rsucceeded', 'failedsucceeded'],
    ['a bell, a backspace and a NUL', 'a\x07b\x08c\x00d', 'abcd'],
    ['DEL and C1 controls (8-bit CSI)', 'a\x7fb\x9b31mc\x85d', 'ab31mcd'],
  ])('removes %s', (_what, text, printable) => {
    expect(printableText(text)).toBe(printable);
  });

  it('keeps tabs, line breaks and every printable character', () => {
    expect(printableText('line 1\n\tline 2 — é ✓ 漢')).toBe('line 1\n\tline 2 — é ✓ 漢');
  });
});

describe('printableLine', () => {
  it('puts text on one line, so that it cannot forge another', () => {
    expect(printableLine('upstream said\nartists run 1: succeeded\t!')).toBe('upstream said artists run 1: succeeded !');
  });
});

describe('terminalJson', () => {
  it('escapes DEL and C1, which JSON.stringify leaves raw, and stays the same JSON', () => {
    const value = { error: 'a\x9b2Jb\x7f\x1b[31m' };
    const json = terminalJson(value);
    const controls = [...json].filter((character) => character.charCodeAt(0) < 0x20 || (character.charCodeAt(0) >= 0x7f && character.charCodeAt(0) <= 0x9f));
    expect(controls).toEqual([]);
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe('formatTable', () => {
  it('strips escape sequences and line breaks from cells, aligning on what is printed', () => {
    const table = formatTable(['job', 'error'], [['artists', '\x1b]0;owned\x07HTTP 500\nfake row']]);
    expect(table).toBe('job      error\n-------  -----------------\nartists  HTTP 500 fake row\n');
  });
});

describe('bidirectional controls', () => {
  it.each([
    ['a right-to-left override', 'run gnp\u202e.exe', 'run gnp\\u202e.exe'],
    ['an isolate and a mark', 'a\u2067b\u200fc', 'a\\u2067b\\u200fc'],
    ['a line separator', 'a\u2028b', 'a\\u2028b'],
  ])('shows %s as its escape, in text and in JSON', (_what, text, shown) => {
    expect(printableText(text)).toBe(shown);
    expect(terminalJson(text)).toBe(`"${shown}"`);
    expect(JSON.parse(terminalJson(text))).toBe(text);
  });
});
