import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, inject } from 'vitest';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import { resolveQuery } from '../../src/config/jobs/resolveQuery.js';
import type { Config } from '../../src/config/schema.js';
import { openQueues, type Queues } from '../../src/jobs/queues.js';
import { Scheduler } from '../../src/scheduling/Scheduler.js';
import { PageRetention } from '../../src/storage/pages/PageRetention.js';
import { openRunStore, type RunStore } from '../../src/storage/runStore.js';
import { waitFor } from '../support/feedsyncProcess.js';
import { pageOf } from '../support/storedPages.js';
import { capturingLogger } from '../support/syncFixture.js';
import { watchSyncQueueAdds } from '../support/syncQueueAdds.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';

let database: TestDatabase;
let redis: Redis;
let store: RunStore;
/** The schedulers a test opened, each with its queues; stopped and closed after it. */
const opened: { scheduler: Scheduler; queues: Queues }[] = [];

function configWith(overlap: 'skip' | 'queue'): Config {
  return parseConfig(
    {
      sources: { music: { baseUrl: 'http://127.0.0.1:9', apiKey: 'k', path: '/2.0/' } },
      jobs: [
        {
          name: 'artists',
          source: 'music',
          overlap,
          schedule: { cron: '0 2 * * *' },
          records: { path: 'items', kind: 'artist' },
          queries: [{ q: 'a', params: { method: 'artist.search' } }, { q: 'b', params: { method: 'artist.search' } }],
        },
      ],
      worker: { prefix: `test-${randomBytes(4).toString('hex')}` },
    },
    'test',
    {},
  );
}

beforeAll(async () => {
  database = await createTestDatabase();
  redis = new Redis(inject('redisUrl'), { maxRetriesPerRequest: null });
  store = openRunStore(database.db);
});
// Every test starts with no runs: the overlap check reads them all.
beforeEach(async () => {
  await database.pool.query('truncate sync_runs, job_ticks cascade');
});
afterEach(async () => {
  for (const { scheduler, queues } of opened.splice(0)) {
    await scheduler.stop();
    await queues.close();
  }
});
afterAll(async () => {
  redis.disconnect();
  await database.drop();
});

/** A scheduler (not started) for `config`, with queues of its own, as in a process of its own. */
function open(config: Config) {
  const queues = openQueues(redis, config.worker);
  const scheduler = new Scheduler(config, queues, store, redis, capturingLogger().logger);
  opened.push({ scheduler, queues });
  return { scheduler, queues };
}

const artists = (config: Config) => config.jobs[0]!;

/** A run of the artists job's first query, claimed and so running. */
const claimRunning = (runKey: string) =>
  store.claims.claim({ runKey, job: 'artists', source: 'music', queryIndex: 0, queryKey: resolveQuery(configWith('skip'), artists(configWith('skip')), 0).queryKey, query: { q: 'a', params: {} } });

const started = (queued: number, skipped: number) => ({ tickId: expect.any(String) as unknown, queued, skipped });

describe('Scheduler', () => {
  it('queues one sync job per query for a tick, with the run key as job id', async () => {
    const config = configWith('skip');
    const { scheduler, queues } = open(config);
    const at = new Date('2026-11-22T02:00:00.000Z');
    expect(await scheduler.tick(artists(config), at)).toEqual(started(2, 0));
    const jobs = await queues.sync.getJobs(['waiting']);
    expect(jobs.map((j) => j.id).sort()).toEqual([`tick/artists/0/${at.getTime()}`, `tick/artists/1/${at.getTime()}`]);
  });

  it('starts a tick once however often it fires: two schedulers, each firing it, and one restarted', async () => {
    const config = configWith('skip');
    const adds = await watchSyncQueueAdds(inject('redisUrl'), config.worker.prefix);
    try {
      const tick = new Date('2026-11-22T02:00:00.000Z');
      const firedAt = (ms: number) => new Date(tick.getTime() + ms);
      const [first, second] = [open(config), open(config)];
      // Each scheduler fires the tick when its own clock reaches it, a moment apart; then one restarts and fires it again.
      const fired = await Promise.all([first.scheduler.tick(artists(config), firedAt(400)), second.scheduler.tick(artists(config), firedAt(700))]);
      fired.push(await open(config).scheduler.tick(artists(config), firedAt(400)));
      // One scheduler opened the tick; the others found it open and queued nothing.
      expect(fired.filter((result) => result.tickId !== undefined)).toEqual([started(2, 0)]);
      expect(fired.filter((result) => result.tickId === undefined)).toHaveLength(2);
      await waitFor('BullMQ to report both adds', () => adds.added.length === 2);
      expect(adds.added.sort()).toEqual([`tick/artists/0/${tick.getTime()}`, `tick/artists/1/${tick.getTime()}`]);
      expect(adds.duplicated).toEqual([]);
      expect(await first.queues.sync.getJobCountByTypes('waiting')).toBe(2);
      const { rows } = await database.pool.query<{ ticks: number; runs: number }>(
        `select (select count(*)::int from job_ticks where tick_key = $1) as ticks, (select count(*)::int from sync_runs where run_key like $2) as runs`,
        [`tick/artists/${tick.getTime()}`, `tick/artists/%/${tick.getTime()}`],
      );
      expect(rows[0]).toEqual({ ticks: 1, runs: 2 });
    } finally {
      await adds.close();
    }
  });

  it('skips a query whose previous run is still running, when overlap is skip', async () => {
    const config = configWith('skip');
    await claimRunning('tick/artists/0/1');
    expect(await open(config).scheduler.tick(artists(config), new Date('2026-11-22T03:00:00Z'))).toEqual(started(1, 1));
  });

  it('skips a query whose previous run was interrupted by a shutdown and waits to resume, when overlap is skip', async () => {
    const config = configWith('skip');
    const run = await claimRunning('tick/artists/0/4');
    await store.finishes.finish(run.id, { status: 'interrupted' }, () => undefined, run);
    expect(await open(config).scheduler.tick(artists(config), new Date('2026-11-22T06:00:00Z'))).toEqual(started(1, 1));
  });

  it('does not let a run abandoned long ago (no page for 15 minutes) block new ticks', async () => {
    const config = configWith('skip');
    const run = await claimRunning('tick/artists/0/3');
    await database.pool.query(`update sync_runs set updated_at = now() - interval '16 minutes' where id = $1`, [run.id]);
    expect(await open(config).scheduler.tick(artists(config), new Date('2026-11-22T05:00:00Z'))).toEqual(started(2, 0));
  });

  it('queues behind a running run when overlap is queue', async () => {
    const config = configWith('queue');
    await claimRunning('tick/artists/0/2');
    expect(await open(config).scheduler.tick(artists(config), new Date('2026-11-22T04:00:00Z'))).toEqual(started(2, 0));
  });

  it('removes schedules no longer in the config from Redis at start', async () => {
    const { scheduler, queues } = open(configWith('skip'));
    await redis.hset(scheduler.schedulesKey, 'removed-job', '{"cron":"* * * * *"}');
    await queues.sync.upsertJobScheduler('legacy', { every: 60_000 });
    await scheduler.start();
    expect(Object.keys(await redis.hgetall(scheduler.schedulesKey))).toEqual(['artists']);
    expect(await queues.sync.getJobSchedulers()).toEqual([]);
  });
});

describe('Scheduler: stored pages', () => {
  /** A succeeded run of the artists job that stored one page marked so. */
  async function storedRun(marker: string): Promise<string> {
    const run = await store.claims.claim({ runKey: `prune-test/${randomBytes(6).toString('hex')}`, job: 'artists', source: 'music', queryIndex: 0, queryKey: 'k', query: { q: 'a', params: {} } });
    await store.pages.storePage(run.id, 0, pageOf('artist', [{ id: marker }], 'id'), 'music');
    await store.finishes.finish(run.id, { status: 'succeeded' }, () => undefined);
    return run.id;
  }

  it('prunes stored pages by the jobs’ retention in its daily prune, which it schedules only when a job has a policy', async () => {
    const base = configWith('skip');
    const config = { ...base, jobs: [{ ...artists(base), retention: { envelopes: { keepLastRuns: 1 } } }] };
    const [older, newer] = [await storedRun('older'), await storedRun('newer')];
    const { logger, lines } = capturingLogger('info');
    const queues = openQueues(redis, config.worker);
    const scheduler = new Scheduler(config, queues, store, redis, logger, new PageRetention(database.pool));
    opened.push({ scheduler, queues });
    await scheduler.start();
    expect(lines.find((line) => line.includes('scheduler started'))).toContain('"dailyPrune":true');

    await scheduler.prune();

    const { rows } = await database.pool.query<{ run_id: string }>('select run_id from envelopes where run_id = any($1::uuid[])', [[older, newer]]);
    expect(rows.map((row) => row.run_id)).toEqual([newer]);
    expect(lines.find((line) => line.includes('stored pages pruned'))).toContain('"envelopes":1');
  });

  it('schedules no prune when no job has a retention policy', async () => {
    const { logger, lines } = capturingLogger('info');
    const config = configWith('skip');
    const queues = openQueues(redis, config.worker);
    const scheduler = new Scheduler(config, queues, store, redis, logger, new PageRetention(database.pool));
    opened.push({ scheduler, queues });
    await scheduler.start();
    expect(lines.find((line) => line.includes('scheduler started'))).toContain('"dailyPrune":false');
  });
});
