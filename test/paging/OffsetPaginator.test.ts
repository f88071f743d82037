import { describe, expect, it } from 'vitest';
import { OffsetPaginator } from '../../src/paging/OffsetPaginator.js';
import { pageOf, pagingConfig } from './pagingFixtures.js';

describe('OffsetPaginator', () => {
  it('asks for offset 0 as offsetParam, with the limit, on top of the query parameters', () => {
    const paginator = new OffsetPaginator(pagingConfig({ style: 'offset', offsetParam: 'start' }));
    expect(paginator.request({ q: 'x' }, paginator.start()).params).toEqual({ q: 'x', limit: '3', start: '0' });
  });

  it('moves the offset on by the items of a full page', () => {
    const paginator = new OffsetPaginator(pagingConfig({ style: 'offset', offsetParam: 'start' }));
    const next = paginator.advance(paginator.start(), pageOf([1, 2, 3]));
    expect(next).toMatchObject({ done: false });
    expect(paginator.request({}, next.position).params).toEqual({ limit: '3', start: '3' });
  });
});
