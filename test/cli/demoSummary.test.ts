import { describe, expect, it } from 'vitest';
import { compactJson, failureLines, storedTable, tickTable } from '../../src/cli/demoSummary.js';
import type { RunReport } from '../../src/storage/runs/recentRuns.js';
import { aTick } from '../support/tickStates.js';

const tick = aTick({ status: 'partial', runs: { total: 5, done: 5, succeeded: 3, partial: 1, failed: 1, skipped: 0 }, finishedAt: new Date('2026-11-24T03:00:02.5Z') });

const run = (n: number, over: Partial<RunReport>): RunReport => ({
  runId: `8d1f2a40-0000-4000-8000-${String(n).padStart(12, '0')}`,
  job: 'users',
  queryIndex: 0,
  value: `us-${n}`,
  status: 'succeeded',
  attempt: 1,
  pages: 1,
  recordsNew: 1,
  recordsUpdated: 0,
  recordsUnchanged: 0,
  startedAt: new Date('2026-11-24T03:00:00Z'),
  durationMs: 100,
  errorKind: null,
  error: null,
  notice: null,
  ...over,
});

describe("the demo's summary", () => {
  it('gives a job tick one line: its runs by outcome, pages, records and time', () => {
    expect(tickTable([{ tick, pages: 42 }]).split('\n')[2]).toBe('users  partial  5     3          1        1       0        42     10   2        3          2.5 s');
  });

  it('lists each failed and partial run with its run id, value and error', () => {
    const lines = failureLines([run(1, {}), run(2, { status: 'failed', errorKind: 'http_4xx', error: 'music: request rejected (HTTP 404)' }), run(3, { status: 'partial', errorKind: 'max_pages', error: 'stopped at paging.maxPages (1)' })]);
    expect(lines).toEqual([
      '2 runs failed or ended partial:',
      '  users run 8d1f2a40-0000-4000-8000-000000000002 (query 0, value us-2): failed, http_4xx: music: request rejected (HTTP 404)',
      '  users run 8d1f2a40-0000-4000-8000-000000000003 (query 0, value us-3): partial, max_pages: stopped at paging.maxPages (1)',
    ]);
  });

  it('lists 20 failed runs at the most, and counts the rest', () => {
    const lines = failureLines(Array.from({ length: 25 }, (_, n) => run(n, { status: 'failed', error: 'gone' })));
    expect(lines).toHaveLength(22);
    expect(lines.at(-1)).toBe('  … and 5 more (`feedsync demo --runs` lists every run)');
  });

  it('says so when no run failed', () => {
    expect(failureLines([run(1, {})])).toEqual(['no run failed or ended partial']);
  });

  it('shows each stored kind beside its typed view, and a declared kind that has no records', () => {
    const views = new Map([['listen', { view: 'analytics.listen', columns: 5, rows: '7' }], ['block', { view: 'analytics.block', columns: 6, rows: '0' }]]);
    expect(storedTable([{ source: 'music', kind: 'listen', n: '7' }, { source: 'music', kind: 'lyrics', n: '1' }], views).split('\n').slice(2, 5)).toEqual([
      'music   listen  7        analytics.listen  5        7',
      'music   lyrics  1',
      '        block   0        analytics.block   6        0',
    ]);
  });

  it('lays JSON out with a mapping of plain values on one line', () => {
    expect(compactJson({ type: 'job.succeeded', data: { runs: { total: 2, failed: 0 }, failedRuns: [] } })).toBe('{\n  "type": "job.succeeded",\n  "data": {\n    "runs": {"total": 2, "failed": 0},\n    "failedRuns": []\n  }\n}');
  });

  it('writes control characters in JSON text as escapes', () => {
    expect(compactJson({ error: 'a\u009bb\u202ec' })).toBe('{"error": "a\\u009bb\\u202ec"}');
  });
});
