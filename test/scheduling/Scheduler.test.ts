import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, inject } from 'vitest';
import { parseConfig } from '../../src/config/loadConfig.js';
import type { Config } from '../../src/config/schema.js';
import { openQueues, type Queues } from '../../src/jobs/queues.js';
import { Scheduler } from '../../src/scheduling/Scheduler.js';
import { RunStore } from '../../src/storage/RunStore.js';
import { capturingLogger } from '../support/syncFixture.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';

let database: TestDatabase;
let redis: Redis;
let queues: Queues;
let scheduler: Scheduler;
let config: Config;

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
});
afterEach(async () => {
  await scheduler.stop();
  await queues.close();
});
afterAll(async () => {
  redis.disconnect();
  await database.drop();
});

function open(overlap: 'skip' | 'queue' = 'skip') {
  config = configWith(overlap);
  queues = openQueues(redis, config.worker);
  scheduler = new Scheduler(config, queues, new RunStore(database.db), redis, capturingLogger().logger);
}

const job = () => config.jobs[0]!;

describe('Scheduler', () => {
  it('queues one sync job per query for a tick, with the run key as job id', async () => {
    open();
    const at = new Date('2026-11-22T02:00:00.000Z');
    expect(await scheduler.tick(job(), at)).toEqual({ queued: 2, skipped: 0 });
    const jobs = await queues.sync.getJobs(['waiting']);
    expect(jobs.map((j) => j.id).sort()).toEqual([`tick/artists/0/${at.getTime()}`, `tick/artists/1/${at.getTime()}`]);
  });

  it('queues a tick once however often it fires (two schedulers, restarts)', async () => {
    open();
    const at = new Date('2026-11-22T02:00:00.400Z');
    await Promise.all([scheduler.tick(job(), at), scheduler.tick(job(), new Date(at.getTime() + 300))]);
    expect(await queues.sync.getJobCountByTypes('waiting')).toBe(2);
  });

  it('skips a query whose previous run is still running, when overlap is skip', async () => {
    open('skip');
    await new RunStore(database.db).claim({ runKey: `tick/artists/0/1`, job: 'artists', source: 'music', queryIndex: 0, queryKey: 'k', query: { q: 'a', params: {} } });
    expect(await scheduler.tick(job(), new Date('2026-11-22T03:00:00Z'))).toEqual({ queued: 1, skipped: 1 });
    await database.pool.query('truncate sync_runs cascade');
  });

  it('does not let a run abandoned long ago (no page for 15 minutes) block new ticks', async () => {
    open('skip');
    const run = await new RunStore(database.db).claim({ runKey: `tick/artists/0/3`, job: 'artists', source: 'music', queryIndex: 0, queryKey: 'k', query: { q: 'a', params: {} } });
    await database.pool.query(`update sync_runs set updated_at = now() - interval '16 minutes' where id = $1`, [run.id]);
    expect(await scheduler.tick(job(), new Date('2026-11-22T05:00:00Z'))).toEqual({ queued: 2, skipped: 0 });
    await database.pool.query('truncate sync_runs cascade');
  });

  it('queues behind a running run when overlap is queue', async () => {
    open('queue');
    await new RunStore(database.db).claim({ runKey: `tick/artists/0/2`, job: 'artists', source: 'music', queryIndex: 0, queryKey: 'k', query: { q: 'a', params: {} } });
    expect(await scheduler.tick(job(), new Date('2026-11-22T04:00:00Z'))).toEqual({ queued: 2, skipped: 0 });
    await database.pool.query('truncate sync_runs cascade');
  });

  it('removes schedules no longer in the config from Redis at start', async () => {
    open();
    await redis.hset(scheduler.schedulesKey, 'removed-job', '{"cron":"* * * * *"}');
    await queues.sync.upsertJobScheduler('legacy', { every: 60_000 });
    await scheduler.start();
    expect(Object.keys(await redis.hgetall(scheduler.schedulesKey))).toEqual(['artists']);
    expect(await queues.sync.getJobSchedulers()).toEqual([]);
  });
});
