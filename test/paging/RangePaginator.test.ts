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

  it('guesses the page after a full one: the next page number and the offset one limit on', () => {
    const paginator = new OffsetPaginator(pagingConfig({ style: 'offset' }));
    const guessed = paginator.guessNext({ page: 2, offset: 3, pagesFetched: 1 })!;
    const read = paginator.advance({ page: 2, offset: 3, pagesFetched: 1 }, pageOf([4, 5, 6])).position;
    expect(paginator.request({}, guessed)).toEqual(paginator.request({}, read));
    expect(guessed).toMatchObject({ page: 3, offset: 6 });
  });

  it('guesses no page past maxPages', () => {
    const paginator = new PageNumberPaginator(pagingConfig({ style: 'page', maxPages: 3 }));
    expect(paginator.guessNext({ page: 2, offset: 3, pagesFetched: 1 })).toBeDefined();
    expect(paginator.guessNext({ page: 3, offset: 6, pagesFetched: 2 })).toBeUndefined();
  });
});
