import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RunIdentity } from '../../../src/storage/runs/runState.js';
import { QUEUED_RUN_KEY_PATTERNS } from '../../../src/sync/runKeys.js';
import { givenRunStore } from '../../support/givenRunStore.js';

const given = givenRunStore();

/**
 * Opens `count` ticks of one job, one after another, each with one queued run of the same query;
 * their runs, oldest first. `keyOf` names each run: a queued one (`manual/`) by default.
 */
async function queuedRunsOfOneQuery(count: number, keyOf = (job: string, tickId: string, _n: number) => `manual/${job}/0/${tickId}`): Promise<RunIdentity[]> {
  const job = `job-${randomUUID().slice(0, 8)}`;
  const runs: RunIdentity[] = [];
  for (let n = 0; n < count; n++) {
    const tickId = randomUUID();
    const run: RunIdentity = { id: randomUUID(), runKey: keyOf(job, tickId, n), job, source: 'music', queryIndex: 0, queryKey: 'k', query: { q: 'a', params: {} }, tickId };
    await given.store.ticks.open({ id: tickId, tickKey: `manual/${job}/${tickId}`, job, trigger: 'enqueue', runs: [run], skipped: 0 });
    // A later tick is opened later: its queued run comes after.
    await given.database.pool.query(`update sync_runs set started_at = now() - make_interval(secs => $2) where id = $1`, [run.id, count - n]);
    runs.push(run);
  }
  return runs;
}

const goesFirst = (run: RunIdentity) => given.store.running.anotherIsRunning(run.job, run.queryKey, run.runKey, QUEUED_RUN_KEY_PATTERNS);

describe('RunningRuns.anotherIsRunning', () => {
  it('lets only the oldest of queued runs of one query go when they are taken up at once, before any has started', async () => {
    const [older, newer] = await queuedRunsOfOneQuery(2);
    expect(await goesFirst(older!)).toBe(false);
    expect(await goesFirst(newer!)).toBe(true);
  });

  it('holds a queued run behind one of its query under way, and lets it go once that one ended', async () => {
    const [older, newer] = await queuedRunsOfOneQuery(2);
    const started = await given.store.claims.claim(older!);
    expect(await goesFirst(newer!)).toBe(true);
    await given.store.finishes.finish(started.id, { status: 'succeeded' }, () => undefined);
    expect(await goesFirst(newer!)).toBe(false);
  });

  it('does not hold a run under way behind a run of its query queued before it', async () => {
    const [older, newer] = await queuedRunsOfOneQuery(2);
    await given.store.claims.claim(newer!);
    await given.database.pool.query(`update sync_runs set status = 'interrupted' where id = $1`, [newer!.id]);
    expect(await goesFirst(newer!)).toBe(false);
    expect(await goesFirst(older!)).toBe(true);
  });

  it('does not hold a queued run behind a queued row no queue holds, left by a killed `feedsync run`', async () => {
    const [leftOver, queued] = await queuedRunsOfOneQuery(2, (job, tickId, n) => (n === 0 ? `run/${job}/0/${tickId}` : `manual/${job}/0/${tickId}`));
    expect(leftOver!.runKey.startsWith('run/')).toBe(true);
    expect(await goesFirst(queued!)).toBe(false);
  });

  it('does not hold a queued run behind one queued over a day ago, whose queue job is taken to be lost', async () => {
    const [older, newer] = await queuedRunsOfOneQuery(2);
    await given.database.pool.query(`update sync_runs set updated_at = now() - interval '25 hours' where id = $1`, [older!.id]);
    expect(await goesFirst(newer!)).toBe(false);
  });
});
