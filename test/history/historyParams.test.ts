import { describe, expect, it } from 'vitest';
import { HistoryParamError, readParams } from '../../src/history/historyParams.js';

const read = (query: string, allowed: Parameters<typeof readParams>[1]) => readParams(new URLSearchParams(query), allowed);
const statuses = ['succeeded', 'failed'];

describe('the history page’s query parameters', () => {
  it('default to the first page and no status', () => {
    expect(read('', { page: true, statuses })).toEqual({ page: 1, status: undefined });
  });

  it('read a page number and a status', () => {
    expect(read('page=3&status=failed', { page: true, statuses })).toEqual({ page: 3, status: 'failed' });
  });

  it.each(['0', '-1', '1.5', 'abc', '100001', '9999999', ''])('refuse page=%s, naming the parameter', (page) => {
    expect(() => read(`page=${page}`, { page: true })).toThrow(/query parameter page must be a whole number from 1 to 100,000/);
  });

  it('refuse a status that is not one of the allowed, listing them', () => {
    expect(() => read('status=%3Cb%3E', { page: true, statuses })).toThrow('query parameter status must be one of succeeded, failed, not "<b>"');
  });

  it('refuse a parameter the page does not take, and one given twice', () => {
    expect(() => read('sort=asc', { page: true })).toThrow(new HistoryParamError('unknown query parameter "sort"; this page takes page'));
    expect(() => read('page=1', {})).toThrow('this page takes none');
    expect(() => read('page=1&page=2', { page: true })).toThrow('query parameter page is given more than once');
  });
});
