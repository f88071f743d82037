import { describe, expect, it } from 'vitest';
import { formatRunTable } from '../../src/cli/runTable.js';
import type { RunReport } from '../../src/storage/runs/recentRuns.js';

const run = (over: Partial<RunReport>): RunReport => ({
  runId: '8d1f2a40-0000-4000-8000-000000000001',
  job: 'users-recent-tracks',
  queryIndex: 0,
  value: null,
  status: 'succeeded',
  attempt: 1,
  pages: 3,
  recordsNew: 10,
  recordsUpdated: 2,
  recordsUnchanged: 3,
  startedAt: new Date('2026-11-24T03:00:00Z'),
  durationMs: 1500,
  errorKind: null,
  error: null,
  notice: 'delivered',
  ...over,
});

describe('the per-run table of status and demo --runs', () => {
  it("shows each run's fan-out value in a column of its own, empty for a query without one", () => {
    const [header, , fanned, plain] = formatRunTable([run({ value: 'us-0001' }), run({ job: 'artists' })]).split('\n');
    const valueAt = header!.indexOf('value');
    expect(fanned!.slice(valueAt).split(/\s+/)[0]).toBe('us-0001');
    expect(plain!.slice(valueAt, valueAt + 'us-0001'.length).trim()).toBe('');
  });

  it("shows a run's error after its kind", () => {
    expect(formatRunTable([run({ status: 'failed', errorKind: 'http_4xx', error: 'music: request rejected (HTTP 404)' })])).toMatch(/failed .* http_4xx: music: request rejected \(HTTP 404\)\n$/);
  });
});
