import { describe, expect, it } from 'vitest';
import type { PagingConfig } from '../../src/config/schema.js';
import { CursorPaginator } from '../../src/paging/CursorPaginator.js';
import { OffsetPaginator } from '../../src/paging/OffsetPaginator.js';
import { PageNumberPaginator } from '../../src/paging/PageNumberPaginator.js';
import { createPaginator, PagingStyleError } from '../../src/paging/paginatorStyles.js';
import { SlidingWindowPaginator } from '../../src/paging/SlidingWindowPaginator.js';
import { pagingConfig, window6 } from './pagingFixtures.js';

describe('createPaginator', () => {
  it.each([
    { style: 'page', paginator: PageNumberPaginator },
    { style: 'offset', paginator: OffsetPaginator },
    { style: 'cursor', paginator: CursorPaginator },
  ])('builds the $paginator.name registered for style "$style"', ({ style, paginator }) => {
    expect(createPaginator(pagingConfig({ style, cursorPath: 'next' }))).toBeInstanceOf(paginator);
  });

  it('puts the style in a sliding result window when window is set', () => {
    expect(createPaginator(pagingConfig({ style: 'offset', window: window6 }))).toBeInstanceOf(SlidingWindowPaginator);
  });

  it('rejects an unknown style, naming the registered ones', () => {
    // The schema admits no such style: only a config built in code reaches the registry with one.
    const config = { ...pagingConfig(), style: 'scroll' } as unknown as PagingConfig;
    const create = () => createPaginator(config);
    expect(create).toThrow(PagingStyleError);
    expect(create).toThrow('"scroll" is not a paging style (have: page, offset, cursor, link_header, next_url)');
  });

  it('rejects a result window around a style that does not count from the start of the results', () => {
    const config = { ...pagingConfig({ style: 'cursor', cursorPath: 'next' }), window: window6 };
    expect(() => createPaginator(config)).toThrow('a result window slides page or offset paging, not cursor paging');
  });
});
