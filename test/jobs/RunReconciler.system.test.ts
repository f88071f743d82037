import { randomBytes, randomUUID } from 'node:crypto';
import { UnrecoverableError, Worker } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it, inject } from 'vitest';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import type { Config } from '../../src/config/schema.js';
import { OPEN_GATE } from '../../src/http/RequestGate.js';
import { SourceClient } from '../../src/http/SourceClient.js';
import { AbandonedRuns } from '../../src/jobs/AbandonedRuns.js';
import { openQueues, SYNC_QUEUE, type Queues } from '../../src/jobs/queues.js';
import { openRedis } from '../../src/redis/openRedis.js';
import { RunReconciler } from '../../src/jobs/RunReconciler.js';
import { completionNotice } from '../../src/notices/completionNotice.js';
import { tickNotice } from '../../src/notices/tickNotice.js';
import { WorkerProcess } from '../../src/runtime/WorkerProcess.js';
import { startSimulator, type Simulator } from '../../src/simulator/startSimulator.js';
import { openRunStore } from '../../src/storage/runStore.js';
import { inProcessRunKey, queuedRunKey } from '../../src/sync/runKeys.js';
import { syncQuery } from '../../src/sync/syncQuery.js';
import { startFeedsync, waitFor, writeConfig } from '../support/feedsyncProcess.js';
import { inProcessLockHolder } from '../support/inProcessLock.js';
import { artistSearchTotal, capturingLogger, queryOf, simulatorSources } from '../support/syncFixture.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';
import { runIdentityOf } from '../../src/sync/runIdentity.js';

let simulator: Simulator;
let database: TestDatabase;
const closers: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  simulator = await startSimulator({ seed: 17, music: { artists: 600, users: 2, playsPerUser: 10 }, chain: { initialHead: 100, blockIntervalMs: 0 } });
  database = await createTestDatabase();
});
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await database.pool.query('truncate job_ticks, sync_runs, envelopes, dead_letters, records, notices, notice_attempts, incremental_cursors');
});
afterAll(async () => {
  await simulator.close();
  await database.drop();
});

/** Artist search for "a", 50 a page; `jobs` names the jobs the config keeps. */
function configWith(worker: Record<string, unknown> = {}, jobs = ['artists']): Config {
  const artists = { source: 'music', records: { path: 'results.artistmatches.artist', kind: 'artist' }, paging: { limit: 50 }, queries: [{ q: 'a', params: { method: 'artist.search' } }] };
  return parseConfig(
    {
      sources: simulatorSources(simulator),
      jobs: jobs.map((name) => ({ name, ...artists })),
      webhook: { baseUrl: simulator.webhookBaseUrl, uuid: simulator.webhookUuid },
      worker: { prefix: `test-${randomBytes(4).toString('hex')}`, lockDurationMs: 1000, ...worker },
    },
    'test',
    {},
  );
}

function openTestQueues(config: Config): Queues {
  const connection = openRedis(inject('redisUrl'), 'worker');
  const queues = openQueues(connection, config.worker);
  closers.push(async () => {
    await queues.close();
    connection.disconnect();
  });
  return queues;
}

/**
 * A run with no queue job: two pages stored, then stopped as a shutdown stops it (interrupted,
 * to resume later), as if Redis had lost its job since.
 */
async function runWithoutJob(config: Config, runKey: string, job = 'artists'): Promise<string> {
  const query = queryOf(config, job);
  const client = new SourceClient('music', query.source);
  closers.push(() => client.close());
  const stop = new AbortController();
  const summary = await syncQuery(
    query,
    runIdentityOf(query, runKey),
    { store: openRunStore(database.db), client, gate: OPEN_GATE, logger: capturingLogger().logger, signal: stop.signal, onPage: (progress) => (progress.pages === 2 ? stop.abort() : undefined) },
  );
  expect(summary.status).toBe('interrupted');
  return summary.runId;
}

/** A sweeping reconciler of a worker process on `config`; with `tickNotices`, its store writes a tick's notice as it ends. */
function reconcilerFor(config: Config, queues: Queues, idleForMs = 0, tickNotices = false): RunReconciler {
  const store = openRunStore(database.db, { tickNoticeFor: tickNotices ? tickNotice : undefined });
  const logger = capturingLogger().logger;
  const abandoned = new AbandonedRuns({ store, logger, metrics: undefined, noticeFor: completionNotice, requestDrain: () => Promise.resolve() });
  const redis = openRedis(inject('redisUrl'), 'worker');
  closers.push(() => Promise.resolve(redis.disconnect()));
  return new RunReconciler({ config, store, logger }, queues, redis, abandoned, { intervalMs: 0, idleForMs, changedWithinMs: 86_400_000 });
}

const runRow = (id: string) =>
  database.pool
    .query<{ status: string; pages: number; crashes: number; error_kind: string | null; error: string | null }>('select status, pages, crashes, error_kind, error from sync_runs where id = $1', [id])
    .then((r) => r.rows[0]);

/**
 * A run whose holders were killed twice (each taking it up found it still running: two crashes),
 * the last one's queue job then lost with Redis's data and queued again by a sweep: a new job,
 * which BullMQ has seen stall never. Returns the run's id.
 */
async function runCrashedTwiceThenRequeued(config: Config, queues: Queues): Promise<string> {
  const runKey = queuedRunKey('artists', 0, randomUUID());
  const runId = await runWithoutJob(config, runKey);
  const store = openRunStore(database.db);
  const identity = runIdentityOf(queryOf(config, 'artists'), runKey, { id: runId });
  for (let holder = 0; holder < 3; holder++) await store.claims.claim(identity);
  expect(await runRow(runId)).toMatchObject({ status: 'running', crashes: 2 });
  expect(await reconcilerFor(config, queues).sweep()).toEqual({ requeued: [runKey], closed: [] });
  const job = await queues.sync.getJob(runKey);
  expect({ stalled: job?.stalledCounter, attempts: job?.attemptsMade }).toEqual({ stalled: 0, attempts: 0 });
  return runId;
}

/** A worker process on `config`, its own sweeps off (the test sweeps). */
async function startWorker(config: Config): Promise<void> {
  const feedsync = await WorkerProcess.open({ config, redis: inject('redisUrl'), databaseUrl: database.url, logger: capturingLogger().logger, roles: { worker: true, scheduler: false } });
  closers.push(() => feedsync.close());
  await feedsync.start();
}

describe('RunReconciler', () => {
  it('in a worker process, queues again by itself a run whose queue job is gone, and the run resumes from its checkpoint to the end', async () => {
    const config = configWith({ reconcileIntervalMs: 200, reconcileAfterMs: 1000 });
    const runId = await runWithoutJob(config, queuedRunKey('artists', 0, randomUUID()));
    const feedsync = await WorkerProcess.open({ config, redis: inject('redisUrl'), databaseUrl: database.url, logger: capturingLogger().logger, roles: { worker: true, scheduler: false } });
    closers.push(() => feedsync.close());
    await feedsync.start();
    await waitFor('the run to succeed', async () => (await runRow(runId))?.status === 'succeeded', 30_000);
    const { rows } = await database.pool.query<{ seqs: number[]; pages: string[] }>(
      `select array_agg(page_seq order by page_seq) as seqs, array_agg(split_part(split_part(request_url, 'page=', 2), '&', 1) order by page_seq) as pages from envelopes where run_id = $1`,
      [runId],
    );
    // Pages 1 and 2 once, before the loss; the rest after it, with none fetched twice.
    expect(rows[0]!.pages.map(Number)).toEqual(rows[0]!.seqs);
    expect(rows[0]!.seqs.length).toBe(Math.ceil((await artistSearchTotal(simulator, 'a')) / 50));
  });

  it('goes on counting the crashes of a run whose queue job Redis lost, from its row, not from the new job', async () => {
    const config = configWith({ reconcileIntervalMs: 0, maxCrashes: 5 });
    const runId = await runCrashedTwiceThenRequeued(config, openTestQueues(config));
    await startWorker(config);
    // The new job's first holder finds the run still running: the third crash.
    const ended = await waitFor('the run to end', async () => ((await runRow(runId))?.status === 'running' ? undefined : runRow(runId)), 30_000);
    expect(ended).toMatchObject({ status: 'succeeded', crashes: 3 });
  });

  it('fails as crashed_too_often a run whose queue job Redis lost, once its row counts more crashes than worker.maxCrashes', async () => {
    const jobNotices = configWith({ reconcileIntervalMs: 0, maxCrashes: 2 });
    // Notices of runs: this run has no tick to announce it.
    const config: Config = { ...jobNotices, webhook: { ...jobNotices.webhook!, notices: 'run' } };
    const queues = openTestQueues(config);
    const runId = await runCrashedTwiceThenRequeued(config, queues);
    await startWorker(config);
    const ended = await waitFor('the run to end', async () => ((await runRow(runId))?.status === 'running' ? undefined : runRow(runId)), 30_000);
    expect(ended).toMatchObject({ status: 'failed', pages: 2, crashes: 3, error_kind: 'crashed_too_often' });
    expect(ended.error).toBe("the run's worker crashed more than worker.maxCrashes (2) times; it stopped after page 2");
    const { rows } = await database.pool.query<{ type: string }>('select type from notices where run_id = $1', [runId]);
    expect(rows).toEqual([{ type: 'sync.failed' }]);
  });

  it('queues the run under its run key with its run id, once however many sweeps find it', async () => {
    const config = configWith();
    const queues = openTestQueues(config);
    const runKey = queuedRunKey('artists', 0, randomUUID());
    const runId = await runWithoutJob(config, runKey);
    const [first, second] = await Promise.all([reconcilerFor(config, queues).sweep(), reconcilerFor(config, queues).sweep()]);
    expect([...first.requeued, ...second.requeued]).toContain(runKey);
    const jobs = await queues.sync.getJobs(['waiting']);
    expect(jobs.map((job) => ({ id: job.id, data: job.data }))).toEqual([{ id: runKey, data: { job: 'artists', queryIndex: 0, runKey, runId } }]);
  });

  it('leaves alone a run whose queue job exists', async () => {
    const config = configWith();
    const queues = openTestQueues(config);
    const runKey = queuedRunKey('artists', 0, randomUUID());
    await runWithoutJob(config, runKey);
    await queues.sync.add('sync', { job: 'artists', queryIndex: 0, runKey }, { jobId: runKey, delay: 60_000 });
    expect(await reconcilerFor(config, queues).sweep()).toEqual({ requeued: [], closed: [] });
    expect(await queues.sync.getJobState(runKey)).toBe('delayed');
  });

  it('leaves alone a run whose row changed within the idle period', async () => {
    const config = configWith();
    const queues = openTestQueues(config);
    await runWithoutJob(config, queuedRunKey('artists', 0, randomUUID()));
    expect(await reconcilerFor(config, queues, 60_000).sweep()).toEqual({ requeued: [], closed: [] });
    expect(await queues.sync.count()).toBe(0);
  });

  it('leaves alone a run that has been quiet for longer than the window it looks in', async () => {
    const config = configWith();
    const queues = openTestQueues(config);
    const runId = await runWithoutJob(config, queuedRunKey('artists', 0, randomUUID()));
    await database.pool.query(`update sync_runs set updated_at = now() - interval '2 days' where id = $1`, [runId]);
    expect(await reconcilerFor(config, queues).sweep()).toEqual({ requeued: [], closed: [] });
    expect(await queues.sync.count()).toBe(0);
  });

  it('does not queue a run of `feedsync run`, which has no queue job', async () => {
    const config = configWith();
    const queues = openTestQueues(config);
    await runWithoutJob(config, inProcessRunKey('artists', 0, randomUUID()));
    expect(await reconcilerFor(config, queues).sweep()).toEqual({ requeued: [], closed: [] });
    expect(await queues.sync.count()).toBe(0);
  });

  it('closes as failed the runs a killed `feedsync run` left, so that their tick ends with its notice, and not while that process lives', async () => {
    const config = configWith();
    const queues = openTestQueues(config);
    simulator.setFaults('music', { latencyMs: 300 });
    closers.push(() => Promise.resolve(simulator.reset()));
    const file = await writeConfig({ sources: simulatorSources(simulator), jobs: [{ name: 'artists', source: 'music', records: { path: 'results.artistmatches.artist', kind: 'artist' }, paging: { limit: 50 }, queries: [{ q: 'a', params: { method: 'artist.search' } }] }], webhook: { baseUrl: simulator.webhookBaseUrl, uuid: simulator.webhookUuid } });
    const run = startFeedsync(['run', 'artists', '--config', file], { DATABASE_URL: database.url, REDIS_URL: '', LOG_LEVEL: 'warn' });
    closers.push(async () => {
      run.kill('SIGKILL');
      await run.exited;
    });
    const started = await waitFor('a page stored by feedsync run', async () => {
      const { rows } = await database.pool.query<{ run_key: string; tick_id: string }>(`select run_key, tick_id from sync_runs where run_key like 'run/%' and pages > 0`);
      return rows[0];
    });
    const reconciler = reconcilerFor(config, queues, 0, true);
    expect(await reconciler.sweep()).toEqual({ requeued: [], closed: [] });
    run.kill('SIGKILL');
    await run.exited;
    // Postgres ends the killed process's sessions, and drops their locks, once it notices their sockets closed.
    await waitFor('the killed process sessions gone', async () => (await inProcessLockHolder(database.pool, started.tick_id)) === undefined);
    expect(await reconciler.sweep()).toEqual({ requeued: [], closed: [started.run_key] });
    const { rows } = await database.pool.query<{ status: string; error_kind: string; tick: string; notices: number }>(
      `select r.status, r.error_kind, t.status as tick, (select count(*)::int from notices n where n.tick_id = t.id) as notices
        from sync_runs r join job_ticks t on t.id = r.tick_id where r.run_key = $1`,
      [started.run_key],
    );
    expect(rows[0]).toEqual({ status: 'failed', error_kind: 'process_stopped', tick: 'failed', notices: 1 });
  }, 60_000);

  it('closes as failed, with its notice, a run whose job is gone and whose query left the config', async () => {
    const before = configWith({}, ['artists', 'retired']);
    const runKey = queuedRunKey('retired', 0, randomUUID());
    const runId = await runWithoutJob(before, runKey, 'retired');
    const after = configWith({ prefix: before.worker.prefix });
    const queues = openTestQueues(after);
    expect(await reconcilerFor(after, queues).sweep()).toEqual({ requeued: [], closed: [runKey] });
    expect(await runRow(runId)).toMatchObject({ status: 'failed', pages: 2, error_kind: 'query_removed' });
    const { rows } = await database.pool.query<{ type: string; body: string }>('select type, body from notices where run_id = $1', [runId]);
    expect(rows.map((row) => row.type)).toEqual(['sync.failed']);
    expect(JSON.parse(rows[0]!.body)).toMatchObject({ data: { runId, error: { kind: 'query_removed' } } });
    expect(await queues.sync.count()).toBe(0);
  });

  it('closes as failed, with its notice, a run whose queue job failed for good without the run recording it', async () => {
    const config = configWith();
    const queues = openTestQueues(config);
    const runKey = queuedRunKey('artists', 0, randomUUID());
    const runId = await runWithoutJob(config, runKey);
    // A processor that fails the job for good and never touches the run row.
    const connection = openRedis(inject('redisUrl'), 'worker');
    const failing = new Worker(SYNC_QUEUE, () => Promise.reject(new UnrecoverableError('lost in a crash')), { connection, prefix: config.worker.prefix });
    closers.push(async () => {
      await failing.close();
      connection.disconnect();
    });
    await queues.sync.add('sync', { job: 'artists', queryIndex: 0, runKey }, { jobId: runKey });
    await waitFor('the job to fail', async () => (await queues.sync.getJobState(runKey)) === 'failed');
    expect(await reconcilerFor(config, queues).sweep()).toEqual({ requeued: [], closed: [runKey] });
    expect(await runRow(runId)).toMatchObject({ status: 'failed', error_kind: 'abandoned', error: 'lost in a crash' });
    const { rows } = await database.pool.query<{ type: string }>('select type from notices where run_id = $1', [runId]);
    expect(rows.map((row) => row.type)).toEqual(['sync.failed']);
  });
});
