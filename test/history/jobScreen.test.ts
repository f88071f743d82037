import { describe, expect, it } from 'vitest';
import { jobScreen } from '../../src/history/screens/jobScreen.js';
import { syncRuns } from '../../src/storage/tables/runTables.js';

describe("a job's history page", () => {
  it('offers a status filter for every status a run can have, partial included', () => {
    const page = jobScreen({ job: 'users', ticks: [], runs: { rows: [], more: false }, status: undefined, page: 1 });
    const offered = [...page.matchAll(/href="\/runs\/jobs\/users\?status=([a-z]+)"/g)].map((match) => match[1]);
    expect(offered).toEqual(syncRuns.status.enumValues);
    expect(offered).toContain('partial');
  });
});
