import { describe, expect, it } from 'vitest';
import { parseJson } from '../../src/config/records/exactJson.js';
import { readTotal } from '../../src/paging/readTotal.js';
import { pagingConfig } from './pagingFixtures.js';

describe('readTotal', () => {
  it('reads the total at a configured dot path', () => {
    expect(readTotal({ meta: { count: 42 } }, pagingConfig({ totalPath: 'meta.count' }).totalPath)).toBe(42);
  });

  it('reads a total given as digits in text', () => {
    expect(readTotal({ total: '1200' }, ['total'])).toBe(1200);
  });

  it('takes the first path that holds a number, passing over text that is not one', () => {
    expect(readTotal({ total: 'n/a', results: { total: '7' }, '@attr': { total: '9' } }, ['total', 'results.total', '@attr.total'])).toBe(7);
  });

  it('finds the total at @attr.total with the default paths', () => {
    expect(readTotal({ '@attr': { total: '15' } }, pagingConfig().totalPath)).toBe(15);
  });

  it('reads a total written with an exponent (a number kept exactly) as its value', () => {
    expect(readTotal(parseJson('{"total":1.2e3}'), ['total'])).toBe(1200);
  });

  it('is undefined when no path holds a total', () => {
    expect(readTotal({ total: { value: 3 }, count: 3 }, ['total', 'results.total'])).toBeUndefined();
  });
});
