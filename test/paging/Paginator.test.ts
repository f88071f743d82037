import { describe, expect, it } from 'vitest';
import { pagingSchema } from '../../src/config/schema.js';
import { Paginator, WindowStuckError, type PagePosition, type PageSummary } from '../../src/paging/Paginator.js';

const paging = (overrides: Record<string, unknown> = {}) => pagingSchema.parse({ limit: 3, ...overrides });

function page(blocks: number[], hash = blocks.join(',')): PageSummary {
  const items = blocks.map((block, index) => ({ hash: `${block}-${index}-${hash}`, blockNumber: String(block) }));
  return { data: {}, items, keys: items.map((item) => item.hash), contentHash: hash };
}

describe('Paginator', () => {
  it('asks for page numbers from firstPage with the limit', () => {
    const paginator = new Paginator(paging({ firstPage: 1 }));
    const start = paginator.start();
    expect(paginator.requestParams({ q: 'x' }, start)).toEqual({ q: 'x', limit: '3', page: '1' });
    const next = paginator.advance(start, page([1, 1, 2]));
    expect(next.done).toBe(false);
    expect(paginator.requestParams({}, next.position).page).toBe('2');
  });

  it('asks for offsets in offset style', () => {
    const paginator = new Paginator(paging({ style: 'offset', offsetParam: 'start' }));
    const next = paginator.advance(paginator.start(), page([1, 2, 3]));
    expect(paginator.requestParams({}, next.position)).toEqual({ limit: '3', start: '3' });
  });

  it('follows a cursor taken from data in cursor style', () => {
    const paginator = new Paginator(paging({ style: 'cursor', cursorPath: 'paging.next', cursorParam: 'after' }));
    const first = paginator.requestParams({}, paginator.start());
    expect(first.after).toBeUndefined();
    const next = paginator.advance(paginator.start(), { ...page([1, 2, 3]), data: { paging: { next: 'abc' } } });
    expect(next.done).toBe(false);
    expect(paginator.requestParams({}, next.position).after).toBe('abc');
  });

  it('stops in cursor style when data has no next cursor', () => {
    const paginator = new Paginator(paging({ style: 'cursor', cursorPath: 'paging.next' }));
    expect(paginator.advance(paginator.start(), page([1, 2, 3]))).toMatchObject({ done: true, reason: 'no_cursor' });
  });

  it('stops at a page shorter than the limit', () => {
    const paginator = new Paginator(paging());
    expect(paginator.advance(paginator.start(), page([1, 2]))).toMatchObject({ done: true, reason: 'short_page' });
  });

  it('stops at an empty page', () => {
    const paginator = new Paginator(paging());
    expect(paginator.advance(paginator.start(), page([]))).toMatchObject({ done: true, reason: 'empty_page' });
  });

  it('stops after maxPages', () => {
    const paginator = new Paginator(paging({ maxPages: 2 }));
    const first = paginator.advance(paginator.start(), page([1, 2, 3]));
    expect(paginator.advance(first.position, page([4, 5, 6]))).toMatchObject({ done: true, reason: 'max_pages' });
  });

  it('stops when a page repeats the previous one byte for byte', () => {
    const paginator = new Paginator(paging());
    const first = paginator.advance(paginator.start(), page([1, 2, 3], 'same'));
    expect(paginator.advance(first.position, page([1, 2, 3], 'same'))).toMatchObject({ done: true, reason: 'repeated_page' });
  });

  describe('with a capped result window', () => {
    const windowed = () => new Paginator(paging({ window: { maxResults: 6, param: 'startblock', field: 'blockNumber' } }));

    it('slides the lower bound to the last value read once page × limit would pass the cap', () => {
      const paginator = windowed();
      let position: PagePosition = paginator.start();
      position = paginator.advance(position, page([1, 1, 2])).position;
      const slid = paginator.advance(position, page([2, 3, 3]));
      expect(slid.done).toBe(false);
      expect(paginator.requestParams({}, slid.position)).toEqual({ limit: '3', page: '1', startblock: '3' });
    });

    it('marks the records of the boundary value as overlap for the next window', () => {
      const paginator = windowed();
      const first = page([1, 1, 2]);
      const second = page([2, 3, 3]);
      let position = paginator.advance(paginator.start(), first).position;
      position = paginator.advance(position, second).position;
      expect(paginator.isOverlap(position, second.keys[1]!)).toBe(true);
      expect(paginator.isOverlap(position, second.keys[2]!)).toBe(true);
      expect(paginator.isOverlap(position, second.keys[0]!)).toBe(false);
    });

    it('fails when one value fills the whole window, rather than loop', () => {
      const paginator = windowed();
      let position = paginator.advance(paginator.start(), page([5, 5, 5], 'a')).position;
      position = paginator.advance(position, page([5, 5, 5], 'b')).position;
      expect(position.windowStart).toBe('5');
      position = paginator.advance(position, page([5, 5, 5], 'c')).position;
      expect(() => paginator.advance(position, page([5, 5, 5], 'd'))).toThrow(WindowStuckError);
    });
  });
});
