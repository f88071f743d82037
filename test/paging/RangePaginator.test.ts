import { describe, expect, it } from 'vitest';
import { OffsetPaginator } from '../../src/paging/OffsetPaginator.js';
import { PageNumberPaginator } from '../../src/paging/PageNumberPaginator.js';
import { pageOf, pagingConfig } from './pagingFixtures.js';

describe('RangePaginator (page and offset styles)', () => {
  it('moves both the page number and the offset with every page, so a run resumed under the other style goes on where it was', () => {
    const byPage = new PageNumberPaginator(pagingConfig({ style: 'page' }));
    const afterTwoPages = byPage.advance(byPage.advance(byPage.start(), pageOf([1, 2, 3])).position, pageOf([4, 5, 6])).position;
    expect(afterTwoPages).toMatchObject({ page: 3, offset: 6 });

    const byOffset = new OffsetPaginator(pagingConfig({ style: 'offset' }));
    expect(byOffset.request({}, afterTwoPages).params).toEqual({ limit: '3', offset: '6' });
  });

  it('rewinds both the page number and the offset to the first page', () => {
    const paginator = new OffsetPaginator(pagingConfig({ style: 'offset', firstPage: 1 }));
    expect(paginator.rewind({ page: 4, offset: 9, pagesFetched: 3 })).toEqual({ page: 1, offset: 0, pagesFetched: 3 });
  });
});
