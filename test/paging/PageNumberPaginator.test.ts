import { describe, expect, it } from 'vitest';
import { PageNumberPaginator } from '../../src/paging/PageNumberPaginator.js';
import { pageOf, pagingConfig } from './pagingFixtures.js';

describe('PageNumberPaginator', () => {
  it('asks for firstPage as pageParam, with the limit as limitParam, on top of the query parameters', () => {
    const paginator = new PageNumberPaginator(pagingConfig({ firstPage: 0, pageParam: 'p', limitParam: 'n' }));
    expect(paginator.request({ q: 'x' }, paginator.start()).params).toEqual({ q: 'x', n: '3', p: '0' });
  });

  it('asks for the next page number after a full page', () => {
    const paginator = new PageNumberPaginator(pagingConfig());
    const next = paginator.advance(paginator.start(), pageOf([1, 2, 3]));
    expect(next).toMatchObject({ done: false });
    expect(paginator.request({}, next.position).params).toEqual({ limit: '3', page: '2' });
  });
});
