import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tickNotice, type TickNotice } from '../../../src/notices/tickNotice.js';
import { openStorage, type Storage } from '../../../src/storage/database/database.js';
import { openRunStore, type RunStore } from '../../../src/storage/runStore.js';
import type { RunIdentity } from '../../../src/storage/runs/runState.js';
import type { TickPlan } from '../../../src/storage/ticks/tickState.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';
import { waitFor } from '../../support/waitFor.js';

let database: TestDatabase;
let store: RunStore;
/** A second process's pool and store: finishes racing the first's. */
let other: Storage;
let otherStore: RunStore;

beforeAll(async () => {
  database = await createTestDatabase();
  store = openRunStore(database.db, { tickNoticeFor: tickNotice });
  other = openStorage(database.url);
  otherStore = openRunStore(other.db, { tickNoticeFor: tickNotice });
});
afterAll(async () => {
  await other.close();
  await database.drop();
});

/** A plan of `runs` runs of its own job (so each test owns its rows). */
function planOf(runs: number, extra: Partial<TickPlan> = {}): TickPlan {
  const id = randomUUID();
  const job = `job-${id.slice(0, 8)}`;
  const identities = Array.from({ length: runs }, (_, n): RunIdentity => ({
    id: randomUUID(),
    runKey: `manual/${job}/0/${n}`,
    job,
    source: 'music',
    queryIndex: 0,
    queryKey: `k${n}`,
    query: { q: `v${n}`, params: {} },
    tickId: id,
    value: `v${n}`,
  }));
  return { id, tickKey: `manual/${job}/${id}`, job, trigger: 'enqueue', runs: identities, skipped: 0, ...extra };
}

/** Claims a run of an opened tick and ends it, with `recordsNew` new records and `recordsSkipped` dead letters counted on its row. */
async function endRun(on: RunStore, identity: RunIdentity, status: 'succeeded' | 'partial' | 'failed', recordsNew = 0, recordsSkipped = 0): Promise<void> {
  const run = await on.claims.claim(identity);
  await database.pool.query('update sync_runs set records_new = $2, records_skipped = $3 where id = $1', [run.id, recordsNew, recordsSkipped]);
  const outcomes = {
    succeeded: { status },
    partial: { status, stopReason: 'max_pages', errorKind: 'max_pages', error: 'stopped at paging.maxPages (1) after reading 5 records' },
    failed: { status, errorKind: 'http_4xx', error: `rejected ${identity.value}` },
  };
  const outcome = outcomes[status];
  await on.finishes.finish(run.id, outcome, () => undefined);
}

async function noticesOf(tickId: string): Promise<TickNotice[]> {
  const { rows } = await database.pool.query<{ body: string }>('select body from notices where tick_id = $1', [tickId]);
  return rows.map((row) => JSON.parse(row.body) as TickNotice);
}

async function tickRow(tickId: string) {
  const { rows } = await database.pool.query<{ status: string; runs_done: number; finished_at: Date | null }>('select status, runs_done, finished_at from job_ticks where id = $1', [tickId]);
  return rows[0];
}

describe('JobTicks', () => {
  it('opens a tick with its runs queued, before any is taken up', async () => {
    const plan = planOf(3);
    const opened = await store.ticks.open(plan);
    expect(opened?.runs.map((run) => run.runId)).toEqual(plan.runs.map((run) => run.id));
    const { rows } = await database.pool.query<{ status: string; tick_id: string; fan_value: string }>('select status, tick_id, fan_value from sync_runs where job = $1 order by run_key', [plan.job]);
    expect(rows).toEqual(plan.runs.map((run) => ({ status: 'queued', tick_id: plan.id, fan_value: run.value })));
    expect(await tickRow(plan.id)).toMatchObject({ status: 'running', runs_done: 0, finished_at: null });
  });

  it('opens a tick key once: a second open of the same key returns nothing and writes nothing', async () => {
    const plan = planOf(2);
    await store.ticks.open(plan);
    const again = planOf(2);
    expect(await store.ticks.open({ ...again, tickKey: plan.tickKey })).toBeUndefined();
    expect((await database.pool.query('select 1 from sync_runs where job = $1', [again.job])).rowCount).toBe(0);
  });

  it('starts a queued run at its first claim: attempt 1, started then', async () => {
    const plan = planOf(1);
    await store.ticks.open(plan);
    await database.pool.query(`update sync_runs set started_at = now() - interval '1 hour' where job = $1`, [plan.job]);
    const run = await store.claims.claim(plan.runs[0]!);
    expect(run.attempt).toBe(1);
    expect(Date.now() - run.startedAt.getTime()).toBeLessThan(60_000);
  });

  it('ends the tick with its last run, counting runs by outcome and summing records, with one job notice', async () => {
    const plan = planOf(3);
    await store.ticks.open(plan);
    await endRun(store, plan.runs[0]!, 'succeeded', 5);
    await endRun(store, plan.runs[1]!, 'succeeded', 7);
    expect(await noticesOf(plan.id)).toEqual([]);
    expect(await tickRow(plan.id)).toMatchObject({ status: 'running', runs_done: 2 });
    await endRun(store, plan.runs[2]!, 'failed');
    expect(await tickRow(plan.id)).toMatchObject({ status: 'partial', runs_done: 3 });
    const [notice, ...more] = await noticesOf(plan.id);
    expect(more).toEqual([]);
    expect(notice).toMatchObject({
      type: 'job.partial',
      data: { tickId: plan.id, job: plan.job, trigger: 'enqueue', runs: { total: 3, succeeded: 2, failed: 1, skipped: 0 }, records: { new: 12, updated: 0, unchanged: 0, skipped: 0 }, failedRunsNotListed: 0 },
    });
    expect(notice!.data.failedRuns).toEqual([{ runId: plan.runs[2]!.id, query: 0, value: 'v2', q: 'v2', error: { kind: 'http_4xx', message: 'rejected v2' } }]);
  });

  it('sums the records its runs kept in dead_letters into the tick and its job notice as records.skipped', async () => {
    const plan = planOf(2);
    await store.ticks.open(plan);
    await endRun(store, plan.runs[0]!, 'succeeded', 5, 2);
    await endRun(store, plan.runs[1]!, 'succeeded', 7, 1);
    const { rows } = await database.pool.query<{ records_skipped: string }>('select records_skipped from job_ticks where id = $1', [plan.id]);
    expect(rows[0]!.records_skipped).toBe('3');
    const [notice] = await noticesOf(plan.id);
    expect(notice!.data.records).toEqual({ new: 12, updated: 0, unchanged: 0, skipped: 3 });
  });

  it('ends a tick whose runs all failed as job.failed, and one with every run succeeded as job.succeeded', async () => {
    const failing = planOf(2);
    await store.ticks.open(failing);
    for (const run of failing.runs) await endRun(store, run, 'failed');
    expect((await noticesOf(failing.id)).map((notice) => notice.type)).toEqual(['job.failed']);
    const passing = planOf(2);
    await store.ticks.open(passing);
    for (const run of passing.runs) await endRun(store, run, 'succeeded');
    expect((await noticesOf(passing.id)).map((notice) => notice.type)).toEqual(['job.succeeded']);
  });

  it('ends a tick with a partial run as partial, its job notice counting the partial run apart from failed ones', async () => {
    const plan = planOf(2);
    await store.ticks.open(plan);
    await endRun(store, plan.runs[0]!, 'succeeded', 5);
    await endRun(store, plan.runs[1]!, 'partial', 5);
    expect(await tickRow(plan.id)).toMatchObject({ status: 'partial', runs_done: 2 });
    const [notice] = await noticesOf(plan.id);
    expect(notice).toMatchObject({ type: 'job.partial', data: { runs: { total: 2, succeeded: 1, partial: 1, failed: 0, skipped: 0 }, records: { new: 10 }, failedRuns: [] } });
  });

  it('ends a tick whose runs all ended partial as partial, not failed', async () => {
    const plan = planOf(2);
    await store.ticks.open(plan);
    for (const run of plan.runs) await endRun(store, run, 'partial');
    expect((await noticesOf(plan.id)).map((notice) => notice.type)).toEqual(['job.partial']);
  });

  it('does not count a run that pauses to be retried: only its final end', async () => {
    const plan = planOf(1);
    await store.ticks.open(plan);
    const run = await store.claims.claim(plan.runs[0]!);
    await store.finishes.finish(run.id, { status: 'retrying', errorKind: 'timeout', error: 'slow' }, () => undefined);
    expect(await tickRow(plan.id)).toMatchObject({ status: 'running', runs_done: 0 });
    await endRun(store, plan.runs[0]!, 'succeeded');
    expect(await tickRow(plan.id)).toMatchObject({ status: 'succeeded', runs_done: 1 });
  });

  it('lists the first 100 failed runs in the notice and counts the rest', async () => {
    const plan = planOf(102);
    await store.ticks.open(plan);
    await Promise.all(plan.runs.map((run) => endRun(store, run, 'failed')));
    const [notice] = await noticesOf(plan.id);
    expect(notice!.data.failedRuns).toHaveLength(100);
    expect(notice!.data.failedRunsNotListed).toBe(2);
    expect(notice!.data.runs).toEqual({ total: 102, succeeded: 0, partial: 0, failed: 102, skipped: 0 });
  });

  it('ends a tick exactly once when two processes end its last runs at the same moment', async () => {
    for (let trial = 0; trial < 20; trial++) {
      const plan = planOf(2);
      await store.ticks.open(plan);
      await Promise.all([endRun(store, plan.runs[0]!, 'succeeded'), endRun(otherStore, plan.runs[1]!, 'succeeded')]);
      expect(await tickRow(plan.id)).toMatchObject({ status: 'succeeded', runs_done: 2 });
      expect(await noticesOf(plan.id)).toHaveLength(1);
    }
  });

  it('commits a run\'s finish without waiting for its tick\'s row, which only its count, apart, waits for', async () => {
    const plan = planOf(2);
    await store.ticks.open(plan);
    await endRun(store, plan.runs[0]!, 'succeeded');
    const holder = await database.pool.connect();
    let ending: Promise<void>;
    try {
      await holder.query('begin');
      await holder.query('select 1 from job_ticks where id = $1 for update', [plan.id]);
      ending = endRun(store, plan.runs[1]!, 'succeeded');
      await waitFor('the last run to be finished while its tick is held', async () => {
        const { rows } = await database.pool.query<{ status: string }>('select status from sync_runs where id = $1', [plan.runs[1]!.id]);
        return rows[0]?.status === 'succeeded';
      });
      expect(await tickRow(plan.id)).toMatchObject({ status: 'running', runs_done: 1 });
    } finally {
      await holder.query('commit');
      holder.release();
    }
    await ending;
    expect(await tickRow(plan.id)).toMatchObject({ status: 'succeeded', runs_done: 2 });
    expect(await noticesOf(plan.id)).toHaveLength(1);
  });

  it('counts a run whose count was lost (its process died after its finish) with the next count of its tick', async () => {
    const plan = planOf(3);
    await store.ticks.open(plan);
    await endRun(store, plan.runs[0]!, 'succeeded', 4);
    // The second run's finish committed, its count lost: the tick still counts one.
    const lost = await store.claims.claim(plan.runs[1]!);
    await database.pool.query(`update sync_runs set status = 'failed', finished_at = now() where id = $1`, [lost.id]);
    expect(await tickRow(plan.id)).toMatchObject({ status: 'running', runs_done: 1 });

    await endRun(store, plan.runs[2]!, 'succeeded', 6);

    expect(await tickRow(plan.id)).toMatchObject({ status: 'partial', runs_done: 3 });
    const [notice, ...more] = await noticesOf(plan.id);
    expect(more).toEqual([]);
    expect(notice).toMatchObject({ data: { runs: { total: 3, succeeded: 2, failed: 1 }, records: { new: 10 } } });
  });

  it('ends a tick whose last run ended uncounted, once that run has been still for the idle time', async () => {
    const plan = planOf(2);
    await store.ticks.open(plan);
    await endRun(store, plan.runs[0]!, 'succeeded');
    const last = await store.claims.claim(plan.runs[1]!);
    await database.pool.query(`update sync_runs set status = 'succeeded', finished_at = now() where id = $1`, [last.id]);

    expect(await store.ticks.countUncounted(60_000)).toEqual([]);
    const ended = await store.ticks.countUncounted(0);

    expect(ended.map((tick) => tick.id)).toContain(plan.id);
    expect(await tickRow(plan.id)).toMatchObject({ status: 'succeeded', runs_done: 2 });
    expect(await noticesOf(plan.id)).toHaveLength(1);
    expect((await store.ticks.countUncounted(0)).map((tick) => tick.id)).not.toContain(plan.id);
  });

  it('ends a tick with nothing to run as it opens, with its notice', async () => {
    const plan = planOf(0);
    const opened = await store.ticks.open(plan);
    expect(opened?.tick.status).toBe('succeeded');
    expect((await noticesOf(plan.id)).map((notice) => [notice.type, notice.data.runs.total])).toEqual([['job.succeeded', 0]]);
  });

  it('ends a tick whose queries were all skipped (their previous runs still going) as partial', async () => {
    const plan = planOf(0, { skipped: 2 });
    expect((await store.ticks.open(plan))?.tick.status).toBe('partial');
    expect((await noticesOf(plan.id)).map((notice) => [notice.type, notice.data.runs])).toEqual([['job.partial', { total: 2, succeeded: 0, partial: 0, failed: 0, skipped: 2 }]]);
  });

  it('opens a tick that could not make its runs as failed, its notice naming why', async () => {
    const plan = planOf(0, { error: 'jobs[0].queries[0].forEach.field: none of the 3 stored records of kind "artist" (source "music") has a value at "mbid"' });
    expect((await store.ticks.open(plan))?.tick.status).toBe('failed');
    expect((await noticesOf(plan.id)).map((notice) => [notice.type, notice.data.error])).toEqual([['job.failed', plan.error]]);
  });
});
