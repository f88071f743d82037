import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { openRunStore } from '../../src/storage/runStore.js';
import type { RunIdentity } from '../../src/storage/runs/runState.js';
import { startFeedsync, writeConfig } from '../support/feedsyncProcess.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';

let database: TestDatabase;
let configFile: string;

beforeAll(async () => {
  database = await createTestDatabase();
  configFile = await writeConfig({
    sources: { music: { baseUrl: 'http://127.0.0.1:9', apiKey: 'status-test-key', path: '/2.0/' } },
    jobs: [{ name: 'listens', source: 'music', records: { path: 'x', kind: 'listen' }, queries: [{ q: 'a' }] }],
    worker: { prefix: `test-${randomUUID().slice(0, 8)}` },
  });
});
afterAll(() => database.drop());

/** A tick of two runs of the job `listens`: the first ends succeeded, the second partial with `why`. */
async function tickWithPartialRun(why: string): Promise<{ tickId: string; partialRunId: string }> {
  const store = openRunStore(database.db);
  const tickId = randomUUID();
  const runs = [0, 1].map((n): RunIdentity => ({ id: randomUUID(), runKey: `manual/listens/0/${tickId}/${n}`, job: 'listens', source: 'music', queryIndex: 0, queryKey: `k${n}`, query: { q: 'a', params: {} }, tickId }));
  await store.ticks.open({ id: tickId, tickKey: `manual/listens/${tickId}`, job: 'listens', trigger: 'enqueue', runs, skipped: 0 });
  const [succeeded, partial] = await Promise.all(runs.map((run) => store.claims.claim(run)));
  await store.finishes.finish(succeeded!.id, { status: 'succeeded' }, () => undefined);
  await store.finishes.finish(partial!.id, { status: 'partial', stopReason: 'max_pages', errorKind: 'max_pages', error: why }, () => undefined);
  return { tickId, partialRunId: partial!.id };
}

describe('feedsync status', () => {
  it('shows a partial run with why it did not get everything, and its tick as partial with the run counted', async () => {
    const why = 'stopped at paging.maxPages (1) after reading 50 records of the 300 the upstream states';
    const { tickId, partialRunId } = await tickWithPartialRun(why);
    const process = startFeedsync(['status', '--json', '--config', configFile], { REDIS_URL: inject('redisUrl'), DATABASE_URL: database.url, LOG_LEVEL: 'warn' });
    const { code } = await process.exited;
    expect(code, process.output()).toBe(0);
    const status = JSON.parse(process.output()) as { ticks: { id: string }[]; runs: { runId: string }[] };
    expect(status.runs.find((run) => run.runId === partialRunId)).toMatchObject({ status: 'partial', errorKind: 'max_pages', error: why });
    expect(status.ticks.find((tick) => tick.id === tickId)).toMatchObject({ status: 'partial', runs: { total: 2, succeeded: 1, partial: 1, failed: 0 } });
  });

  it("shows the records a tick's runs skipped into dead_letters", async () => {
    const { tickId, partialRunId } = await tickWithPartialRun('stopped at paging.maxPages (1) after reading 50 records');
    await database.pool.query('update sync_runs set records_skipped = 4 where tick_id = $1 and id <> $2', [tickId, partialRunId]);
    await database.pool.query('update job_ticks set records_skipped = 4 where id = $1', [tickId]);
    const process = startFeedsync(['status', '--json', '--config', configFile], { REDIS_URL: inject('redisUrl'), DATABASE_URL: database.url, LOG_LEVEL: 'warn' });
    const { code } = await process.exited;
    expect(code, process.output()).toBe(0);
    const status = JSON.parse(process.output()) as { ticks: { id: string; records: { skipped: number } }[] };
    expect(status.ticks.find((tick) => tick.id === tickId)?.records.skipped).toBe(4);
  });
});
