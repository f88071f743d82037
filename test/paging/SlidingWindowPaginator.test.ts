import { describe, expect, it } from 'vitest';
import { parseJson } from '../../src/config/records/exactJson.js';
import { WindowStuckError, type PagePosition, type PageSummary, type Paginator } from '../../src/paging/Paginator.js';
import { createPaginator } from '../../src/paging/paginatorStyles.js';
import { pageOf, pagingConfig, window6 } from './pagingFixtures.js';

/** The styles a result window slides, and how each asks for the first and the second page of a window. */
const styles = [
  { style: 'page', firstPage: { page: '1' }, secondPage: { page: '2' } },
  { style: 'offset', firstPage: { offset: '0' }, secondPage: { offset: '3' } },
];

/** The position after reading these pages one after another. */
function after(paginator: Paginator, ...pages: number[][]): PagePosition {
  return pages.reduce((position, blocks, index) => paginator.advance(position, pageOf(blocks, `p${index}`)).position, paginator.start());
}

describe.each(styles)('a result window around $style paging', ({ style, firstPage, secondPage }) => {
  const windowed = () => createPaginator(pagingConfig({ style, window: window6 }));

  it('sends no lower bound before the window has slid', () => {
    const paginator = windowed();
    expect(paginator.request({}, paginator.start()).params).toEqual({ limit: '3', ...firstPage });
  });

  it('asks for the next page while the next request stays within maxResults', () => {
    const paginator = windowed();
    expect(paginator.request({}, after(paginator, [1, 1, 2])).params).toEqual({ limit: '3', ...secondPage });
  });

  it('guesses the next page within the window, keeping its lower bound', () => {
    const paginator = windowed();
    const slid = after(paginator, [1, 1, 2], [2, 3, 3]);
    expect(paginator.request({}, paginator.guessNext!(slid)!).params).toEqual({ limit: '3', ...secondPage, startblock: '3' });
  });

  it('guesses no page where the window slides, whose lower bound only the page read can tell', () => {
    const paginator = windowed();
    expect(paginator.guessNext!(after(paginator, [1, 1, 2]))).toBeUndefined();
  });

  it('slides the lower bound to the last value read, from the first page, once the next request would pass maxResults', () => {
    const paginator = windowed();
    expect(paginator.request({}, after(paginator, [1, 1, 2], [2, 3, 3])).params).toEqual({ limit: '3', ...firstPage, startblock: '3' });
  });

  it('keeps the lower bound on the pages after the slide', () => {
    const paginator = windowed();
    expect(paginator.request({}, after(paginator, [1, 1, 2], [2, 3, 3], [3, 3, 4])).params).toEqual({ limit: '3', ...secondPage, startblock: '3' });
  });

  it('marks the records of the last value read as overlap for the next window, and no others', () => {
    const paginator = windowed();
    const second = pageOf([2, 3, 3], 'p1');
    const slid = after(paginator, [1, 1, 2], [2, 3, 3]);
    expect(second.keys.map((key) => paginator.isOverlap(slid, key))).toEqual([false, true, true]);
  });

  it('marks as overlap the records of the last value on every page that held only that value, not only on the last page', () => {
    const paginator = createPaginator(pagingConfig({ style, window: { ...window6, maxResults: 9 } }));
    const second = pageOf([2, 3, 3], 'p1');
    const third = pageOf([3, 3, 3], 'p2');
    const slid = after(paginator, [1, 1, 2], [2, 3, 3], [3, 3, 3]);
    expect([...second.keys, ...third.keys].map((key) => paginator.isOverlap(slid, key))).toEqual([false, true, true, true, true, true]);
  });

  it('marks only the last run of the last value as overlap when the value came before another on the page', () => {
    const paginator = windowed();
    const first = pageOf([1, 1, 3], 'p0');
    const second = pageOf([3, 2, 3], 'p1');
    const slid = after(paginator, [1, 1, 3], [3, 2, 3]);
    expect([...first.keys, ...second.keys].map((key) => paginator.isOverlap(slid, key))).toEqual([false, false, false, false, false, true]);
  });

  it('passes over records without the window field when it finds the last value and its records', () => {
    const paginator = windowed();
    const second: PageSummary = { ...pageOf([2, 3, 0, 3], 'p1') };
    second.items = second.items.map((item, index) => (index === 2 ? { hash: (item as { hash: string }).hash } : item));
    const position = paginator.advance(paginator.advance(paginator.start(), pageOf([1, 1, 2], 'p0')).position, second).position;
    expect(paginator.request({}, position).params).toEqual({ limit: '3', ...firstPage, startblock: '3' });
    expect(second.keys.map((key) => paginator.isOverlap(position, key))).toEqual([false, true, false, true]);
  });

  it('slides the lower bound to a last value beyond 2^53 as its exact text', () => {
    const paginator = windowed();
    const page = (blocks: string, hash: string): PageSummary => {
      const items = parseJson(`[${blocks}]`.replace(/\d+/g, (block) => `{"blockNumber":${block}}`)) as Record<string, unknown>[];
      return { data: {}, items, keys: items.map((_, index) => `${hash}-${index}`), link: undefined, contentHash: hash };
    };
    const first = paginator.advance(paginator.start(), page('9007199254740993,9007199254740993,9007199254740995', 'p0'));
    const second = paginator.advance(first.position, page('9007199254740995,9007199254740997,9007199254740997', 'p1'));
    expect(paginator.request({}, second.position).params).toEqual({ limit: '3', ...firstPage, startblock: '9007199254740997' });
  });

  it('fails with a WindowStuckError when one value fills the whole window, rather than loop', () => {
    const paginator = windowed();
    const full = after(paginator, [5, 5, 5], [5, 5, 5], [5, 5, 5]);
    const advance = () => paginator.advance(full, pageOf([5, 5, 5], 'p3'));
    expect(advance).toThrow(WindowStuckError);
    expect(advance).toThrow(/one value of the window field \(5\) fills the whole result window/);
  });

  it('fails with a WindowStuckError when the window is full but its records carry no window field', () => {
    const paginator = createPaginator(pagingConfig({ style, window: { ...window6, field: 'timeStamp' } }));
    const full = after(paginator, [1, 2, 3]);
    const advance = () => paginator.advance(full, pageOf([4, 5, 6], 'p1'));
    expect(advance).toThrow(WindowStuckError);
    expect(advance).toThrow(/the result window is full but its records carry no window field/);
  });
});
