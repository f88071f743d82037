import { LosslessNumber } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { keepsAscending, pageOrder } from '../../src/sync/incrementalOrder.js';

const items = (...values: unknown[]) => values.map((uts) => ({ date: { uts } }));

describe('incremental order', () => {
  it('finds a page ascending when each value is at least those before it, comparing integers as numbers', () => {
    expect(pageOrder(items('9', '10', '10', 11), 'date.uts')).toEqual({ first: '9', ascending: true });
  });

  it('reads a number beyond 2^53 as the upstream wrote it', () => {
    expect(pageOrder(items(new LosslessNumber('9007199254740993'), new LosslessNumber('9007199254740992')), 'date.uts')).toEqual({ first: '9007199254740993', ascending: false });
  });

  it('finds a page newest first not ascending', () => {
    expect(pageOrder(items('30', '20', '10'), 'date.uts')).toEqual({ first: '30', ascending: false });
  });

  it('passes over records without the field (a track playing now)', () => {
    expect(pageOrder(items(undefined, '5', null, '6'), 'date.uts')).toEqual({ first: '5', ascending: true });
    expect(pageOrder(items(undefined), 'date.uts')).toEqual({ first: null, ascending: true });
  });

  it('keeps a run ascending only if the page starts at or above the highest value stored before it', () => {
    expect(keepsAscending('10', { first: '10', ascending: true })).toBe(true);
    expect(keepsAscending('10', { first: '9', ascending: true })).toBe(false);
    expect(keepsAscending(null, { first: '9', ascending: true })).toBe(true);
    expect(keepsAscending('10', { first: null, ascending: true })).toBe(true);
    expect(keepsAscending(null, { first: '9', ascending: false })).toBe(false);
  });
});
