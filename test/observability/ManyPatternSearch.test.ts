import { describe, expect, it } from 'vitest';
import { ManyPatternSearch } from '../../src/observability/ManyPatternSearch.js';

const PATTERNS = ['sk-live-0123456789', 'c2stbGl2ZS0wMTIz', '736b2d6c6976652d30313233'];

describe('ManyPatternSearch', () => {
  it.each(PATTERNS)('finds %s at the start, in the middle and at the end of a text', (pattern) => {
    const search = new ManyPatternSearch(PATTERNS);
    const filler = 'lorem ipsum dolor sit amet, '.repeat(40);
    for (const text of [`${pattern}${filler}`, `${filler}${pattern}${filler}`, `${filler}${pattern}`]) expect(search.foundIn(text)).toBe(true);
  });

  it('finds a pattern longer than the shortest, past its common start', () => {
    expect(new ManyPatternSearch(['abcdef', 'uvwxyz0123456789']).foundIn('…uvwxyz0123456789…')).toBe(true);
  });

  it('finds nothing in a text that holds only part of a pattern', () => {
    const search = new ManyPatternSearch(PATTERNS);
    expect(search.foundIn(`sk-live-012345678 ${'x'.repeat(1000)} c2stbGl2ZS0wMTI`)).toBe(false);
  });

  it('finds nothing in a text shorter than every pattern', () => {
    expect(new ManyPatternSearch(PATTERNS).foundIn('sk-live')).toBe(false);
  });

  it('finds nothing without patterns', () => {
    expect(new ManyPatternSearch([]).foundIn('anything at all')).toBe(false);
  });

  it('finds a pattern of characters beyond ASCII', () => {
    expect(new ManyPatternSearch(['ключ-секрет-42']).foundIn('ответ: ключ-секрет-42.')).toBe(true);
  });
});
