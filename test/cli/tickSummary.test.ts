import { describe, expect, it } from 'vitest';
import { tickProgress, tickSummary } from '../../src/cli/tickSummary.js';
import { aTick } from '../support/tickStates.js';

describe('tick summaries', () => {
  it('shows a tick in progress as "n of N runs done"', () => {
    expect(tickProgress(aTick({}))).toBe('2 of 5 runs done');
  });

  it('shows an ended tick by how it went', () => {
    expect(tickProgress(aTick({ status: 'partial', runs: { total: 5, done: 5, succeeded: 4, partial: 0, failed: 1, skipped: 0 } }))).toBe('partial');
  });

  it('sums up a tick in one line: runs by outcome, records, and why it could not run', () => {
    expect(tickSummary(aTick({ status: 'failed', error: 'jobs[0].queries[0].forEach.field: none of the 3 stored records of kind "artist" (source "music") has a value at "mbid"' }))).toBe(
      'users tick 8d1f2a40-0000-4000-8000-000000000001: failed; 5 runs: 1 succeeded, 0 partial, 1 failed, 0 skipped; 10 new, 2 updated, 3 unchanged; jobs[0].queries[0].forEach.field: none of the 3 stored records of kind "artist" (source "music") has a value at "mbid"',
    );
  });

  it('says how many records its runs skipped into dead_letters, when any were', () => {
    expect(tickSummary(aTick({ status: 'succeeded', records: { new: 10, updated: 2, unchanged: 3, skipped: 4 } }))).toMatch(/; 10 new, 2 updated, 3 unchanged, 4 skipped into dead_letters$/);
  });
});
