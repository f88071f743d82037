import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import { findJob } from '../../src/config/jobs/resolveQuery.js';
import type { Config } from '../../src/config/schema.js';
import { enqueueRuns } from '../../src/jobs/enqueueRuns.js';
import { openRedis } from '../../src/redis/openRedis.js';
import type { RedisClient } from '../../src/redis/RedisTarget.js';
import { WorkerProcess } from '../../src/runtime/WorkerProcess.js';
import { Scheduler } from '../../src/scheduling/Scheduler.js';
import { startSimulator, type Simulator } from '../../src/simulator/startSimulator.js';
import { planTick } from '../../src/sync/planTick.js';
import { metricSample, metricSamples } from '../support/metricsText.js';
import { capturingLogger, simulatorSources } from '../support/syncFixture.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';
import { waitFor } from '../support/waitFor.js';

let simulator: Simulator;
let database: TestDatabase;
let redis: RedisClient;
let feedsync: WorkerProcess;
let config: Config;
/** When the one unfinished run was opened, and /metrics read after. */
let waitingSince: number;
let text: string;
let readAt: number;

const YEARLY = { cron: '0 0 1 1 *', timezone: 'UTC' };
const year = new Date().getUTCFullYear();
/** The yearly schedule's latest firing, and the one before. */
const thisNewYear = new Date(Date.UTC(year, 0, 1));
const lastNewYear = new Date(Date.UTC(year - 1, 0, 1));
const artistSearch = { source: 'music', records: { path: 'results.artistmatches.artist', kind: 'artist' }, paging: { limit: 25 } };

beforeAll(async () => {
  simulator = await startSimulator({ seed: 9, music: { artists: 120, users: 2, playsPerUser: 10 }, chain: { initialHead: 100, blockIntervalMs: 0 } });
  database = await createTestDatabase();
  const sources = simulatorSources(simulator);
  config = parseConfig(
    {
      sources: {
        music: { ...sources.music, rateLimit: { max: 40, durationMs: 2000 } },
        // Etherscan's free tier: a few a second, and a daily cap that binds first over a day.
        explorer: { ...sources.explorer, rateLimit: [{ max: 5, durationMs: 1000 }, { max: 86_400, durationMs: 172_800_000 }] },
      },
      jobs: [
        { name: 'artists', ...artistSearch, queries: [{ q: 'a', params: { method: 'artist.search' } }] },
        // One page of several: its tick ends partial.
        { name: 'capped', ...artistSearch, paging: { limit: 10, maxPages: 1 }, queries: [{ q: 'a', params: { method: 'artist.search' } }] },
        // No records where it looks, and one attempt: its tick ends failed.
        { name: 'broken', ...artistSearch, records: { path: 'results.nothing', kind: 'artist' }, queries: [{ q: 'c', params: { method: 'artist.search' } }] },
        { name: 'yearly', ...artistSearch, schedule: YEARLY, queries: [{ q: 'd', params: { method: 'artist.search' } }] },
        { name: 'late', ...artistSearch, schedule: YEARLY, queries: [{ q: 'e', params: { method: 'artist.search' } }] },
        { name: 'fresh', ...artistSearch, schedule: YEARLY, queries: [{ q: 'f', params: { method: 'artist.search' } }] },
        { name: 'waiting', ...artistSearch, queries: [{ q: 'g', params: { method: 'artist.search' } }] },
      ],
      webhook: { baseUrl: simulator.webhookBaseUrl, uuid: simulator.webhookUuid },
      worker: { prefix: `test-${randomBytes(4).toString('hex')}`, httpPort: 0, attempts: 1 },
    },
    'test',
    {},
  );
  feedsync = await WorkerProcess.open({ config, redis: inject('redisUrl'), databaseUrl: database.url, logger: capturingLogger().logger, roles: { worker: true, scheduler: false }, http: true });
  await feedsync.start();
  const { store, logger } = feedsync.runtime;
  for (const job of ['artists', 'capped', 'broken']) await enqueueRuns(config, store, feedsync.queues, job);
  // A scheduler of its own, not started: its ticks fire when told, for the times given.
  redis = openRedis(inject('redisUrl'), 'worker');
  const scheduler = new Scheduler(config, feedsync.queues, store, redis, logger);
  await scheduler.tick(findJob(config, 'yearly'), thisNewYear);
  await scheduler.tick(findJob(config, 'late'), lastNewYear);
  // Its tick and run opened in Postgres, and never queued: the run waits as queued.
  waitingSince = Date.now();
  await store.ticks.open(await planTick(config, findJob(config, 'waiting'), store, { trigger: 'enqueue' }));
  await waitFor('every tick but the waiting one to end', async () => {
    const { rows } = await database.pool.query<{ n: string }>(`select count(*) as n from job_ticks where status = 'running' and job <> 'waiting'`);
    return rows[0]!.n === '0';
  });
  text = await (await fetch(`${feedsync.httpUrl!}/metrics`)).text();
  readAt = Date.now();
});
afterAll(async () => {
  await feedsync.close();
  redis.disconnect();
  await simulator.close();
  await database.drop();
});

describe("a worker's metrics of ticks, runs, workers and rate limits", () => {
  it('counts each tick this process ended under its job and status', () => {
    expect(metricSample(text, 'feedsync_ticks_total', { job: 'artists', status: 'succeeded' })).toBe(1);
    expect(metricSample(text, 'feedsync_ticks_total', { job: 'capped', status: 'partial' })).toBe(1);
    expect(metricSample(text, 'feedsync_ticks_total', { job: 'broken', status: 'failed' })).toBe(1);
    expect(metricSample(text, 'feedsync_ticks_total', { job: 'waiting' })).toBe(0);
  });

  it("gives 1 to the status of each job's latest ended tick and 0 to the other two, and nothing for a job with none ended", () => {
    const statuses = (job: string) => Object.fromEntries(['succeeded', 'partial', 'failed'].map((status) => [status, metricSamples(text, 'feedsync_job_last_tick_status', { job, status })]));
    expect(statuses('artists')).toEqual({ succeeded: [1], partial: [0], failed: [0] });
    expect(statuses('capped')).toEqual({ succeeded: [0], partial: [1], failed: [0] });
    expect(statuses('broken')).toEqual({ succeeded: [0], partial: [0], failed: [1] });
    expect(metricSamples(text, 'feedsync_job_last_tick_status', { job: 'waiting' })).toEqual([]);
  });

  it("gives each scheduled job the time its latest scheduled tick was for, 0 before its first, and nothing for a job without a schedule", () => {
    const last = (job: string) => metricSamples(text, 'feedsync_job_last_scheduled_tick_timestamp_seconds', { job });
    expect(last('yearly')).toEqual([thisNewYear.getTime() / 1000]);
    expect(last('late')).toEqual([lastNewYear.getTime() / 1000]);
    expect(last('fresh')).toEqual([0]);
    expect(last('artists')).toEqual([]);
  });

  it("gives a scheduled job's latest due firing: its latest tick's when it has that tick, later when it missed it", () => {
    const due = (job: string) => metricSamples(text, 'feedsync_job_tick_due_timestamp_seconds', { job });
    expect(due('yearly')).toEqual([thisNewYear.getTime() / 1000]);
    expect(due('late')).toEqual([thisNewYear.getTime() / 1000]);
  });

  it('gives no due firing to a job never ticked on schedule whose schedule has not fired since the worker started', () => {
    expect(metricSamples(text, 'feedsync_job_tick_due_timestamp_seconds', { job: 'fresh' })).toEqual([]);
  });

  it('gives how long the longest idle unfinished run of a job has stored nothing, by its state', () => {
    const [idle] = metricSamples(text, 'feedsync_run_max_idle_seconds', { job: 'waiting', state: 'queued' });
    expect(idle).toBeGreaterThan(0);
    // Postgres's clock and this one are the same machine's.
    expect(idle).toBeLessThanOrEqual((readAt - waitingSince) / 1000 + 1);
    expect(metricSamples(text, 'feedsync_run_max_idle_seconds', { job: 'artists' })).toEqual([]);
  });

  it('counts the workers connected to each queue: this process holds one of each', () => {
    expect(metricSamples(text, 'feedsync_queue_workers', { queue: 'sync' })).toEqual([1]);
    expect(metricSamples(text, 'feedsync_queue_workers', { queue: 'notify' })).toEqual([1]);
  });

  it("gives each rate-limited source's limit as a sustained rate: its tightest window's", () => {
    expect(metricSamples(text, 'feedsync_rate_limit_requests_per_second', { source: 'music' })).toEqual([20]);
    expect(metricSamples(text, 'feedsync_rate_limit_requests_per_second', { source: 'explorer' })).toEqual([0.5]);
  });
});
