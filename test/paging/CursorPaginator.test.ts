import { describe, expect, it } from 'vitest';
import { parseJson } from '../../src/config/records/exactJson.js';
import { CursorPaginator } from '../../src/paging/CursorPaginator.js';
import { pageOf, pagingConfig } from './pagingFixtures.js';

const cursorPaging = () => pagingConfig({ style: 'cursor', cursorPath: 'paging.next', cursorParam: 'after' });

describe('CursorPaginator', () => {
  it('asks for the first page with the limit and no cursor', () => {
    const paginator = new CursorPaginator(cursorPaging());
    expect(paginator.request({ q: 'x' }, paginator.start()).params).toEqual({ q: 'x', limit: '3' });
  });

  it('sends the cursor a full page gave at cursorPath as cursorParam', () => {
    const paginator = new CursorPaginator(cursorPaging());
    const next = paginator.advance(paginator.start(), pageOf([1, 2, 3], 'h', { paging: { next: 'abc' } }));
    expect(next).toMatchObject({ done: false });
    expect(paginator.request({}, next.position).params).toEqual({ limit: '3', after: 'abc' });
  });

  it('sends a numeric cursor as text', () => {
    const paginator = new CursorPaginator(cursorPaging());
    const next = paginator.advance(paginator.start(), pageOf([1, 2, 3], 'h', { paging: { next: 42 } }));
    expect(paginator.request({}, next.position).params.after).toBe('42');
  });

  it('sends a numeric cursor beyond 2^53 as its exact text', () => {
    const paginator = new CursorPaginator(cursorPaging());
    const next = paginator.advance(paginator.start(), pageOf([1, 2, 3], 'h', parseJson('{"paging":{"next":9007199254740993}}') as Record<string, unknown>));
    expect(paginator.request({}, next.position).params.after).toBe('9007199254740993');
  });

  it('stops when a full page gives no next cursor', () => {
    const paginator = new CursorPaginator(cursorPaging());
    expect(paginator.advance(paginator.start(), pageOf([1, 2, 3], 'h', { paging: {} }))).toMatchObject({ done: true, reason: 'no_cursor' });
  });
});
