import { describe, expect, it } from 'vitest';
import type { PagePosition } from '../../src/paging/Paginator.js';
import { createPaginator } from '../../src/paging/paginatorStyles.js';
import { StopRules } from '../../src/paging/StopRules.js';
import { parseJson } from '../../src/config/records/exactJson.js';
import { pageOf, pagingConfig, window6 } from './pagingFixtures.js';

/** Every style, and a style in a result window: each page goes through the same stop rules. */
const styles = [
  { name: 'page', settings: { style: 'page' } },
  { name: 'offset', settings: { style: 'offset' } },
  { name: 'cursor', settings: { style: 'cursor', cursorPath: 'next' } },
  { name: 'page in a result window', settings: { style: 'page', window: window6 } },
];

/** A page whose envelope also gives a next cursor, so that cursor paging would go on after it. */
const pageWithCursor = (blocks: number[], hash?: string) => pageOf(blocks, hash, { next: 'more' });

describe.each(styles)('the stop rules with $name paging', ({ settings }) => {
  const paginatorWith = (overrides: Record<string, unknown> = {}) => createPaginator(pagingConfig({ ...settings, ...overrides }));

  it('go on after a full page that is new, within maxPages', () => {
    const paginator = paginatorWith({ maxPages: 2 });
    expect(paginator.advance(paginator.start(), pageWithCursor([1, 2, 3]))).toMatchObject({ done: false });
  });

  it('stop at an empty page', () => {
    const paginator = paginatorWith();
    expect(paginator.advance(paginator.start(), pageWithCursor([]))).toMatchObject({ done: true, reason: 'empty_page' });
  });

  it('stop at a page shorter than the limit', () => {
    const paginator = paginatorWith();
    expect(paginator.advance(paginator.start(), pageWithCursor([1, 2]))).toMatchObject({ done: true, reason: 'short_page' });
  });

  it('stop after maxPages full pages', () => {
    const paginator = paginatorWith({ maxPages: 2 });
    const first = paginator.advance(paginator.start(), pageWithCursor([1, 2, 3]));
    expect(paginator.advance(first.position, pageWithCursor([4, 5, 6]))).toMatchObject({ done: true, reason: 'max_pages' });
  });

  it('stop when a page repeats the previous one byte for byte', () => {
    const paginator = paginatorWith();
    const first = paginator.advance(paginator.start(), pageWithCursor([1, 2, 3], 'same'));
    expect(paginator.advance(first.position, pageWithCursor([1, 2, 3], 'same'))).toMatchObject({ done: true, reason: 'repeated_page' });
  });

  it('count the pages read into the position', () => {
    const paginator = paginatorWith();
    const first = paginator.advance(paginator.start(), pageWithCursor([1, 2, 3], 'h1'));
    expect(first.position).toMatchObject({ pagesFetched: 1, lastPageHash: 'h1' });
  });
});

const at = (pagesFetched: number): PagePosition => ({ page: pagesFetched + 1, offset: 0, pagesFetched });

describe('StopRules on the totals a page gives', () => {
  it('stops after the page count at totalPagesPath (Last.fm sends it as text), and not before', () => {
    const rules = new StopRules(pagingConfig({ totalPagesPath: 'recenttracks.@attr.totalPages' }));
    const data = { recenttracks: { '@attr': { totalPages: '3' } } };
    expect(rules.count(at(1), pageOf([1, 2, 3], 'p2', data)).stop).toBeUndefined();
    expect(rules.count(at(2), pageOf([4, 5, 6], 'p3', data)).stop).toBe('last_page');
  });

  it('stops at a page whose hasMorePath flag is false, whatever form false takes', () => {
    const rules = new StopRules(pagingConfig({ hasMorePath: 'has_more' }));
    for (const flag of [false, 0, 'false', '0']) expect(rules.count(at(0), pageOf([1, 2, 3], `f${String(flag)}`, { has_more: flag })).stop).toBe('no_more_pages');
    expect(rules.count(at(0), pageOf([1, 2, 3], 'true', { has_more: true })).stop).toBeUndefined();
  });

  it('reads a hasMorePath flag kept exactly (0.0) as false', () => {
    expect(new StopRules(pagingConfig({ hasMorePath: 'has_more' })).count(at(0), pageOf([1, 2, 3], 'f', parseJson('{"has_more":0.0}') as Record<string, unknown>)).stop).toBe('no_more_pages');
  });

  it('reads a page count kept exactly (3.0) as its value', () => {
    const rules = new StopRules(pagingConfig({ totalPagesPath: 'totalPages' }));
    const data = parseJson('{"totalPages":3.0}') as Record<string, unknown>;
    expect(rules.count(at(1), pageOf([1, 2, 3], 'p2', data)).stop).toBeUndefined();
    expect(rules.count(at(2), pageOf([4, 5, 6], 'p3', data)).stop).toBe('last_page');
  });

  it('goes on when a configured total is missing from the page', () => {
    const rules = new StopRules(pagingConfig({ totalPagesPath: 'totalPages', hasMorePath: 'has_more' }));
    expect(rules.count(at(5), pageOf([1, 2, 3])).stop).toBeUndefined();
  });

  it('lets a page shorter than limit go on when told to (the upstream picks the page size)', () => {
    expect(new StopRules(pagingConfig(), false).count(at(0), pageOf([1])).stop).toBeUndefined();
    expect(new StopRules(pagingConfig()).count(at(0), pageOf([1])).stop).toBe('short_page');
  });
});

describe('StopRules with stopAtTotal', () => {
  it('stops once the records read reach the total at totalPath, counting from the run\'s first page', () => {
    const rules = new StopRules(pagingConfig({ stopAtTotal: true, totalPath: 'total' }));
    const first = rules.count(at(0), pageOf([1, 2, 3], 'a', { total: 6 }));
    expect(first.stop).toBeUndefined();
    expect(rules.count(first.position, pageOf([4, 5, 6], 'b', { total: 6 })).stop).toBe('total_reached');
  });

  it('does not stop at the records of the total unless told to', () => {
    const rules = new StopRules(pagingConfig({ totalPath: 'total' }));
    expect(rules.count(at(0), pageOf([1, 2], 'a', { total: 3 })).stop).toBe('short_page');
    expect(new StopRules(pagingConfig({ totalPath: 'total' }), false).count(at(0), pageOf([1, 2, 3], 'a', { total: 3 })).stop).toBeUndefined();
  });
});

describe('StopRules with a total and no page count', () => {
  it('ends after the pages the stated total fills at this page size (Last.fm\'s search totals)', () => {
    const rules = new StopRules(pagingConfig({ totalPath: 'results.opensearch:totalResults' }));
    const data = { results: { 'opensearch:totalResults': '6' } };
    expect(rules.count(at(0), pageOf([1, 2, 3], 'p1', data)).stop).toBeUndefined();
    expect(rules.count(at(1), pageOf([4, 5, 6], 'p2', data)).stop).toBe('last_page');
  });

  it('takes no page count from a total where the upstream picks the page size, or for a sliding window', () => {
    const data = { total: 3 };
    expect(new StopRules(pagingConfig({ totalPath: 'total' }), false).count(at(0), pageOf([1, 2, 3], 'a', data)).stop).toBeUndefined();
    const window = { maxResults: 9, param: 'startblock', field: 'blockNumber' };
    expect(new StopRules(pagingConfig({ totalPath: 'total', window })).count(at(0), pageOf([1, 2, 3], 'a', data)).stop).toBeUndefined();
  });

  it('takes no page count from a total it found at the default paths, which may count something else', () => {
    expect(new StopRules(pagingConfig()).count(at(0), pageOf([1, 2, 3], 'a', { total: 3 })).stop).toBeUndefined();
  });

  it('leaves the page count to totalPagesPath where the upstream gives one', () => {
    const rules = new StopRules(pagingConfig({ totalPath: 'total', totalPagesPath: 'totalPages' }));
    expect(rules.count(at(0), pageOf([1, 2, 3], 'a', { total: 3, totalPages: 2 })).stop).toBeUndefined();
  });
});
