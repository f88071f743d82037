import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, inject } from 'vitest';
import type { ConfigInput } from '../../src/config/schema.js';
import { workerSchema } from '../../src/config/worker/workerSchema.js';
import { openQueues } from '../../src/jobs/queues.js';
import { openRedis } from '../../src/redis/openRedis.js';
import { startRedisServer, type RedisServer } from '../../src/localstack/redisServer.js';
import { startSimulator, type Simulator } from '../../src/simulator/startSimulator.js';
import { enqueueByCli, startedFeedsync, waitFor, writeConfig, type FeedsyncProcess } from '../support/feedsyncProcess.js';
import { startHoldingProxy } from '../support/holdingProxy.js';
import { watchSyncQueueAdds } from '../support/syncQueueAdds.js';
import { artistSearchTotal, simulatorSources } from '../support/syncFixture.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';
import { scratchDir } from '../support/scratchDir.js';

let simulator: Simulator;
let database: TestDatabase;
const processes: FeedsyncProcess[] = [];

beforeAll(async () => {
  simulator = await startSimulator({ seed: 5, music: { artists: 2000, users: 5, playsPerUser: 50 }, chain: { initialHead: 500, blockIntervalMs: 0 } });
  database = await createTestDatabase();
});
afterEach(async () => {
  for (const process of processes.splice(0)) {
    if (process.child.exitCode === null && process.child.signalCode === null) process.kill('SIGKILL');
    await process.exited;
  }
  simulator.reset();
  await database.pool.query('truncate job_ticks, sync_runs, envelopes, dead_letters, records, notices, notice_attempts, incremental_cursors');
});
afterAll(async () => {
  await simulator.close();
  await database.drop();
});

/** Artist search for "a" at 20 a page: dozens of pages, so a run lasts long enough to interrupt. */
function config(overrides: { worker?: ConfigInput['worker']; rateLimit?: { max: number; durationMs: number }; queries?: number; schedule?: string; overlap?: 'skip' | 'queue' } = {}): ConfigInput {
  const sources = simulatorSources(simulator);
  if (overrides.rateLimit) sources.music!.rateLimit = overrides.rateLimit;
  return {
    sources,
    jobs: [
      {
        name: 'artists',
        source: 'music',
        ...(overrides.schedule ? { schedule: { cron: overrides.schedule } } : {}),
        ...(overrides.overlap ? { overlap: overrides.overlap } : {}),
        records: { path: 'results.artistmatches.artist', kind: 'artist' },
        paging: { limit: 20 },
        queries: Array.from({ length: overrides.queries ?? 1 }, (_, i) => ({ q: ['a', 'e', 'i', 'o', 'u', 'r'][i % 6]!, params: { method: 'artist.search' } })),
      },
    ],
    worker: { prefix: `test-${randomBytes(4).toString('hex')}`, httpPort: 0, attempts: 3, backoffMs: 100, lockDurationMs: 2000, stalledIntervalMs: 1000, drainTimeoutMs: 5000, ...overrides.worker },
  };
}

/** Every job of the sync queue under `prefix`, whatever its state. */
async function syncJobs(prefix: string) {
  const connection = openRedis(inject('redisUrl'), 'producer');
  const queues = openQueues(connection, workerSchema.parse({ prefix }));
  try {
    return await queues.sync.getJobs(['active', 'waiting', 'delayed', 'prioritized', 'completed', 'failed']);
  } finally {
    await queues.close();
    connection.disconnect();
  }
}

async function spawn(command: string, configFile: string, redisUrl = inject('redisUrl')) {
  const process = await startedFeedsync([command, '--config', configFile], { REDIS_URL: redisUrl, DATABASE_URL: database.url });
  processes.push(process);
  return process;
}

function enqueue(configFile: string, redisUrl = inject('redisUrl')): Promise<string> {
  return enqueueByCli('artists', configFile, { REDIS_URL: redisUrl, DATABASE_URL: database.url });
}

/** Resolves with the exit once the process has ended by itself, or fails after `timeoutMs`. */
async function exitOf(process: FeedsyncProcess, timeoutMs: number) {
  await waitFor('the process to exit by itself', () => process.child.exitCode !== null || process.child.signalCode !== null, timeoutMs);
  return process.exited;
}

const run = (id: string) =>
  database.pool
    .query<{ status: string; pages: number; attempt: number; crashes: number; error_kind: string | null; records_new: number }>(
      'select status, pages, attempt, crashes, error_kind, records_new from sync_runs where id = $1',
      [id],
    )
    .then((r) => r.rows[0]);

/**
 * Queues a run of this config for a worker, then kills that worker with SIGKILL `times` times,
 * each after more pages were stored, starting a new worker after each; returns the run id.
 */
async function runWithCrashes(tree: ConfigInput, times: number): Promise<string> {
  const file = await writeConfig(tree);
  let worker = await spawn('worker', file);
  const runId = await enqueue(file);
  for (let kill = 1; kill <= times; kill++) {
    await waitFor(`pages after crash ${kill - 1}`, async () => ((await run(runId))?.pages ?? 0) >= kill * 3, 30_000);
    worker.kill('SIGKILL');
    await worker.exited;
    worker = await spawn('worker', file);
  }
  return runId;
}

async function expectCompleteAndUnique(runId: string) {
  const { rows: pages } = await database.pool.query<{ page_seq: number; page: string }>(
    `select page_seq, split_part(split_part(request_url, 'page=', 2), '&', 1) as page from envelopes where run_id = $1 order by page_seq`,
    [runId],
  );
  expect(pages.map((p) => p.page_seq)).toEqual(pages.map((_, i) => i + 1));
  expect(pages.map((p) => Number(p.page))).toEqual(pages.map((_, i) => i + 1));
  const total = await artistSearchTotal(simulator, 'a');
  const { rows } = await database.pool.query<{ n: string }>(`select count(*) as n from records where kind = 'artist'`);
  expect(Number(rows[0]!.n)).toBe(total);
}

describe('worker processes', () => {
  it('recovers a run from its checkpoint after its worker is killed with SIGKILL', async () => {
    simulator.setFaults('music', { latencyMs: 40 });
    const file = await writeConfig(config());
    const first = await spawn('worker', file);
    const runId = await enqueue(file);
    await waitFor('a few pages stored', async () => ((await run(runId))?.pages ?? 0) >= 3);
    first.kill('SIGKILL');
    await first.exited;
    const pagesAtKill = (await run(runId))!.pages;
    expect((await run(runId))!.status).toBe('running');
    await spawn('worker', file);
    const finished = await waitFor('the run to finish elsewhere', async () => {
      const row = await run(runId);
      return row?.status === 'succeeded' && row;
    }, 30_000);
    expect(finished.pages).toBeGreaterThan(pagesAtKill);
    expect(finished.attempt).toBeGreaterThanOrEqual(2);
    await expectCompleteAndUnique(runId);
  }, 60_000);

  it('finishes a run whose worker crashes three times, with the default worker.maxCrashes, and records the three crashes apart from attempts', async () => {
    simulator.setFaults('music', { latencyMs: 60 });
    const tree = config();
    const runId = await runWithCrashes(tree, 3);
    const finished = await waitFor('the run to finish', async () => {
      const row = await run(runId);
      return row?.status !== 'running' && row;
    }, 60_000);
    expect(finished).toMatchObject({ status: 'succeeded', crashes: 3 });
    await expectCompleteAndUnique(runId);
    // BullMQ counts the attempt that succeeded, and none for the crashes.
    const jobs = await syncJobs(tree.worker!.prefix!);
    expect(jobs.map((job) => job.attemptsMade)).toEqual([1]);
  }, 120_000);

  it('fails a run whose worker crashed more often than worker.maxCrashes, as crashed_too_often, and its notice says so', async () => {
    simulator.setFaults('music', { latencyMs: 60 });
    const tree = config({ worker: { maxCrashes: 1 } });
    tree.webhook = { baseUrl: simulator.webhookBaseUrl, uuid: simulator.webhookUuid, notices: 'run' };
    const runId = await runWithCrashes(tree, 2);
    const failed = await waitFor('the run to be recorded as failed', async () => {
      const row = await run(runId);
      return row?.status === 'failed' && row;
    }, 30_000);
    expect(failed.error_kind).toBe('crashed_too_often');
    expect(failed.crashes).toBeGreaterThanOrEqual(2);
    type Notice = { type: string; data: { runId: string; crashes: number; error: { kind: string } | null } };
    const notice = await waitFor('the failure notice', () =>
      simulator
        .requests(simulator.webhookUuid)
        .map((request) => JSON.parse(request.body) as Notice)
        .find((body) => body.data.runId === runId),
    20_000);
    expect(notice).toMatchObject({ type: 'sync.failed', data: { error: { kind: 'crashed_too_often' } } });
    expect(notice.data.crashes).toBeGreaterThanOrEqual(2);
  }, 90_000);

  it('drains on SIGTERM: stores the page in hand, records the run interrupted (logged at info), exits by itself before its drain timeout, and the run resumes later', async () => {
    const proxy = await startHoldingProxy(simulator.musicBaseUrl);
    try {
      const tree = config();
      // The held request must not time out (and be tried again) while the test holds it.
      tree.sources.music = { ...tree.sources.music!, baseUrl: proxy.baseUrl, timeoutMs: 60_000 };
      const file = await writeConfig(tree);
      // The run's first request: once it has left, the run is waiting for that page, with none stored before it.
      const firstRequest = proxy.holdNext();
      const worker = await spawn('worker', file);
      const runId = await enqueue(file);
      const inHand = await firstRequest;
      expect(new URL(inHand.url, proxy.baseUrl).searchParams.get('page')).toBe('1');
      worker.kill('SIGTERM');
      await waitFor('the worker to start draining', () => worker.output().includes('shutting down: draining current runs'));
      inHand.release();
      const { code } = await exitOf(worker, 30_000);
      expect(code, worker.output()).toBe(0);
      expect(worker.output()).not.toContain('drain timed out');
      expect(worker.output()).toContain('run interrupted by shutdown; it resumes from its checkpoint');
      expect(worker.output()).not.toContain('run failed');
      expect((await run(runId))!.status).toBe('interrupted');
      const { rows: stored } = await database.pool.query<{ page_seq: number }>('select page_seq from envelopes where run_id = $1 order by page_seq', [runId]);
      expect(stored.map((envelope) => envelope.page_seq)).toEqual([1]);
      expect((await run(runId))!.pages).toBe(1);
      await spawn('worker', file);
      await waitFor('the run to finish', async () => (await run(runId))?.status === 'succeeded', 30_000);
      await expectCompleteAndUnique(runId);
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it('holds a source rate limit across three worker processes, measured at the simulator', async () => {
    const file = await writeConfig(config({ rateLimit: { max: 5, durationMs: 1000 }, queries: 6, worker: { concurrency: 2 } }));
    await Promise.all([spawn('worker', file), spawn('worker', file), spawn('worker', file)]);
    simulator.resetStats();
    await enqueue(file);
    await waitFor('25 requests', () => simulator.stats().music.count >= 25, 30_000);
    const stats = simulator.stats().music;
    expect(stats.maxPerSecond).toBeLessThanOrEqual(5);
  }, 60_000);

  it('fires a per-second schedule once per tick with two schedulers running: one tick row and one run per second', async () => {
    // `queue`: a tick that fires while the last run still goes is queued as well (`skip` would drop it).
    const tree = config({ schedule: '* * * * * *', overlap: 'queue' });
    const file = await writeConfig(tree);
    const adds = await watchSyncQueueAdds(inject('redisUrl'), tree.worker!.prefix!);
    const scheduleTicks = async () => (await database.pool.query<{ at: Date }>(`select scheduled_for as at from job_ticks where trigger = 'schedule' order by 1`)).rows.map((row) => row.at.getTime() / 1000);
    try {
      const schedulers = await Promise.all([spawn('scheduler', file), spawn('scheduler', file)]);
      await spawn('worker', file);
      await waitFor('six ticks', async () => (await scheduleTicks()).length >= 6, 30_000);
      for (const scheduler of schedulers) scheduler.kill('SIGTERM');
      await Promise.all(schedulers.map((scheduler) => scheduler.exited));
    } finally {
      await adds.close();
    }
    // Both schedulers fired every second; each second is one tick, with one run and one queue job.
    const ticks = await scheduleTicks();
    expect(ticks.slice(1).map((s, i) => s - ticks[i]!)).toEqual(ticks.slice(1).map(() => 1));
    const { rows } = await database.pool.query<{ n: string }>(`select count(*) as n from sync_runs where scheduled_for is not null group by scheduled_for`);
    expect(rows).toHaveLength(ticks.length);
    expect(rows.every((row) => row.n === '1')).toBe(true);
    // The scheduler that found a tick open queued nothing: no add was turned away as a duplicate.
    expect(adds.duplicated).toEqual([]);
  }, 60_000);

  it('goes on when Redis restarts under a running worker', async () => {
    const dataDir = await scratchDir('redis');
    let redis: RedisServer = await startRedisServer({ dataDir });
    try {
      simulator.setFaults('music', { latencyMs: 40 });
      const file = await writeConfig(config());
      await spawn('worker', file, redis.url);
      const runId = await enqueue(file, redis.url);
      await waitFor('a few pages stored', async () => ((await run(runId))?.pages ?? 0) >= 3);
      await redis.stop();
      await new Promise((resolve) => setTimeout(resolve, 500));
      redis = await startRedisServer({ dataDir, port: redis.port });
      await waitFor('the run to finish', async () => (await run(runId))?.status === 'succeeded', 30_000);
      await expectCompleteAndUnique(runId);
      simulator.setFaults('music', {});
      await database.pool.query('truncate records');
      const second = await enqueue(file, redis.url);
      await waitFor('a run queued after the restart to finish', async () => (await run(second))?.status === 'succeeded', 30_000);
    } finally {
      await redis.stop();
    }
  }, 60_000);
});
