import { describe, expect, it } from 'vitest';
import { nextLinkOf } from '../../src/paging/linkHeader.js';

describe('nextLinkOf', () => {
  it('picks the rel="next" link among several (GitHub\'s form)', () => {
    const header = '<https://api.example.com/items?page=3>; rel="next", <https://api.example.com/items?page=9>; rel="last"';
    expect(nextLinkOf(header)).toBe('https://api.example.com/items?page=3');
  });

  it('reads rel without quotes, in any case, and among several relation types', () => {
    expect(nextLinkOf('</p/2>; REL=next')).toBe('/p/2');
    expect(nextLinkOf('</p/2>; title="a, b; c"; rel="prefetch next"')).toBe('/p/2');
  });

  it('finds no next link where there is none', () => {
    expect(nextLinkOf('</p/1>; rel="prev", </p/1>; rel="first"')).toBeUndefined();
    expect(nextLinkOf('')).toBeUndefined();
    expect(nextLinkOf('</p/2>; rel="nextish"')).toBeUndefined();
  });
});
