import { describe, expect, it } from 'vitest';
import { joinKeyParts, mayNeedRekey } from '../../src/paging/compositeKey.js';

describe('joinKeyParts', () => {
  it('joins parts that hold neither "|" nor "\\" as plain joining always did', () => {
    expect(joinKeyParts(['Abba', 'a2', '7'])).toBe('Abba|a2|7');
  });

  it('escapes a "|" within a part, so that [a|b, c] and [a, b|c] are two keys', () => {
    expect(joinKeyParts(['a|b', 'c'])).toBe('a\\|b|c');
    expect(joinKeyParts(['a', 'b|c'])).toBe('a|b\\|c');
  });

  it('escapes a "\\" within a part, so that a part ending in one cannot swallow the separator', () => {
    expect(joinKeyParts(['a\\', 'b'])).toBe('a\\\\|b');
    expect(joinKeyParts(['a\\', 'b'])).not.toBe(joinKeyParts(['a|b']));
  });

  it('keeps a one-part key as it is, whatever it holds', () => {
    expect(joinKeyParts(['a|b\\c'])).toBe('a|b\\c');
  });

  it('never gives two different lists of parts the same key', () => {
    const alphabet = ['a', '|', '\\'];
    const strings = [''];
    for (let length = 1; length <= 3; length++) for (const s of strings.filter((x) => x.length === length - 1)) for (const c of alphabet) strings.push(s + c);
    const seen = new Map<string, string>();
    for (const first of strings) {
      for (const second of strings) {
        const key = joinKeyParts([first, second]);
        const parts = JSON.stringify([first, second]);
        expect(seen.get(key) ?? parts, `${parts} and ${seen.get(key)} share ${key}`).toBe(parts);
        seen.set(key, parts);
      }
    }
  });
});

describe('mayNeedRekey', () => {
  it('picks a stored key with a "|" of its own or a "\\", and passes one with just the separators', () => {
    expect(mayNeedRekey('a|b|c', 2)).toBe(true);
    expect(mayNeedRekey('a\\b|c', 2)).toBe(true);
    expect(mayNeedRekey('a|b', 2)).toBe(false);
    expect(mayNeedRekey('a|b|c', 3)).toBe(false);
  });
});
