import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRunStore, type RunStore } from '../../src/storage/RunStore.js';
import type { RunIdentity } from '../../src/storage/runState.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';

let database: TestDatabase;
let store: RunStore;

beforeAll(async () => {
  database = await createTestDatabase();
  store = openRunStore(database.db);
});
afterAll(() => database.drop());

/** Opens `count` ticks of one job, one after another, each with one queued run of the same query; their runs, oldest first. */
async function queuedRunsOfOneQuery(count: number): Promise<RunIdentity[]> {
  const job = `job-${randomUUID().slice(0, 8)}`;
  const runs: RunIdentity[] = [];
  for (let n = 0; n < count; n++) {
    const tickId = randomUUID();
    const run: RunIdentity = { id: randomUUID(), runKey: `manual/${job}/0/${tickId}`, job, source: 'music', queryIndex: 0, queryKey: 'k', query: { q: 'a', params: {} }, tickId };
    await store.ticks.open({ id: tickId, tickKey: `manual/${job}/${tickId}`, job, trigger: 'enqueue', runs: [run], skipped: 0 });
    // A later tick is opened later: its queued run comes after.
    await database.pool.query(`update sync_runs set started_at = now() - make_interval(secs => $2) where id = $1`, [run.id, count - n]);
    runs.push(run);
  }
  return runs;
}

const goesFirst = (run: RunIdentity) => store.running.anotherIsRunning(run.job, run.queryKey, run.runKey);

describe('RunningRuns.anotherIsRunning', () => {
  it('lets only the oldest of queued runs of one query go when they are taken up at once, before any has started', async () => {
    const [older, newer] = await queuedRunsOfOneQuery(2);
    expect(await goesFirst(older!)).toBe(false);
    expect(await goesFirst(newer!)).toBe(true);
  });

  it('holds a queued run behind one of its query under way, and lets it go once that one ended', async () => {
    const [older, newer] = await queuedRunsOfOneQuery(2);
    const started = await store.claims.claim(older!);
    expect(await goesFirst(newer!)).toBe(true);
    await store.finishes.finish(started.id, { status: 'succeeded' }, () => undefined);
    expect(await goesFirst(newer!)).toBe(false);
  });

  it('does not hold a run under way behind a run of its query queued before it', async () => {
    const [older, newer] = await queuedRunsOfOneQuery(2);
    await store.claims.claim(newer!);
    await database.pool.query(`update sync_runs set status = 'interrupted' where id = $1`, [newer!.id]);
    expect(await goesFirst(newer!)).toBe(false);
    expect(await goesFirst(older!)).toBe(true);
  });
});
