import { describe, expect, it } from 'vitest';
import { formatTable } from '../../src/cli/printTable.js';
import { printableLine, printableText, terminalJson } from '../../src/cli/terminalText.js';
import { bidiRows, controlRows } from './terminalTextRows.js';

describe('printableText', () => {
  it.each(controlRows.map((row) => [row.what, row.text, row.printed] as const))('removes %s', (_what, text, printable) => {
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
  it.each(bidiRows.map((row) => [row.what, row.text, row.printed] as const))('shows %s as its escape, in text and in JSON', (_what, text, shown) => {
    expect(printableText(text)).toBe(shown);
    expect(terminalJson(text)).toBe(`"${shown}"`);
    expect(JSON.parse(terminalJson(text))).toBe(text);
  });
});
