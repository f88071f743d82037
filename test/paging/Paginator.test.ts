import { describe, expect, it } from 'vitest';
import type { PagePosition } from '../../src/paging/Paginator.js';
import { createPaginator } from '../../src/paging/paginatorStyles.js';
import { pageOf, pagingConfig, window6 } from './pagingFixtures.js';

/**
 * Checkpoint positions as the single Paginator class of earlier releases stored them (it moved
 * `page` and `offset` on together whatever the style): a run resumed after an upgrade reads them.
 */
const stored = {
  /** Page style in a window of 6 on `startblock`, after two pages [1,1,2] and [2,3,3]: the window had just slid to block 3. */
  windowSlid: '{"page":1,"offset":0,"pagesFetched":2,"lastPageHash":"2,3,3","boundaryValue":"3","boundaryKeys":["3-1-2,3,3","3-2-2,3,3"],"windowStart":"3","skipKeys":["3-1-2,3,3","3-2-2,3,3"]}',
  /** Offset style after one full page of 3. */
  offset: '{"page":2,"offset":3,"pagesFetched":1,"lastPageHash":"1,2,3"}',
  /** Cursor style after one page that gave the cursor "abc". */
  cursor: '{"page":1,"offset":0,"pagesFetched":1,"lastPageHash":"1,2,3","cursor":"abc"}',
};
const resumed = (json: string) => JSON.parse(json) as PagePosition;

describe('checkpoint positions stored before paging styles had classes of their own', () => {
  const windowed = () => createPaginator(pagingConfig({ window: window6 }));

  it('resume a windowed page-style run at the page and lower bound they hold', () => {
    expect(windowed().request({}, resumed(stored.windowSlid)).params).toEqual({ limit: '3', page: '1', startblock: '3' });
  });

  it('keep skipping the records they mark as read by the previous window', () => {
    const paginator = windowed();
    expect(['3-1-2,3,3', '3-2-2,3,3', '4-0-x'].map((key) => paginator.isOverlap(resumed(stored.windowSlid), key))).toEqual([true, true, false]);
  });

  it('go on from a windowed page-style position to the next page of the same window', () => {
    const paginator = windowed();
    const next = paginator.advance(resumed(stored.windowSlid), pageOf([3, 3, 4]));
    expect(paginator.request({}, next.position).params).toEqual({ limit: '3', page: '2', startblock: '3' });
  });

  it('resume an offset-style run at the offset they hold', () => {
    expect(createPaginator(pagingConfig({ style: 'offset' })).request({}, resumed(stored.offset)).params).toEqual({ limit: '3', offset: '3' });
  });

  it('resume a cursor-style run with the cursor they hold', () => {
    const paginator = createPaginator(pagingConfig({ style: 'cursor', cursorPath: 'next' }));
    expect(paginator.request({}, resumed(stored.cursor)).params).toEqual({ limit: '3', cursor: 'abc' });
  });

  it.each(['page', 'offset', 'cursor'])('are still written from the start by %s style, with every field earlier releases read', (style) => {
    const paginator = createPaginator(pagingConfig({ style, firstPage: 0, cursorPath: 'next' }));
    expect(paginator.start()).toEqual({ page: 0, offset: 0, pagesFetched: 0 });
  });
});
