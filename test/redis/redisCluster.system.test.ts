import { randomBytes } from 'node:crypto';
import { Cluster } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../src/config/schema.js';
import { startSimulator, type Simulator } from '../../src/simulator/startSimulator.js';
import { artistSearchTotal, simulatorSources } from '../support/syncFixture.js';
import { startedFeedsync, startFeedsync, waitFor, writeConfig, type FeedsyncProcess } from '../support/feedsyncProcess.js';
import { startRedisCluster, type RedisCluster } from '../support/redis/redisCluster.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';

let cluster: RedisCluster;
let simulator: Simulator;
let database: TestDatabase;
const processes: FeedsyncProcess[] = [];

beforeAll(async () => {
  [cluster, simulator, database] = await Promise.all([
    startRedisCluster(3),
    startSimulator({ seed: 7, music: { artists: 300, users: 2, playsPerUser: 10 }, chain: { initialHead: 100, blockIntervalMs: 0 } }),
    createTestDatabase(),
  ]);
}, 60_000);
afterEach(async () => {
  for (const process of processes.splice(0)) {
    if (process.child.exitCode === null && process.child.signalCode === null) process.kill('SIGKILL');
    await process.exited;
  }
  await database.pool.query('truncate job_ticks, sync_runs, envelopes, dead_letters, records, notices, notice_attempts, incremental_cursors');
});
afterAll(async () => {
  await Promise.all([cluster?.stop(), simulator?.close(), database?.drop()]);
});

/** Artist search with a shared rate limit, so that its Redis script runs on the cluster too. */
function config(schedule?: string, rateLimit = { max: 50, durationMs: 1000 }, queries = 1): ConfigInput {
  const sources = simulatorSources(simulator);
  sources.music!.rateLimit = rateLimit;
  return {
    sources,
    jobs: [
      {
        name: 'artists',
        source: 'music',
        ...(schedule ? { schedule: { cron: schedule }, overlap: 'queue' as const } : {}),
        records: { path: 'results.artistmatches.artist', kind: 'artist' },
        paging: { limit: 50 },
        queries: Array.from({ length: queries }, (_, i) => ({ q: ['a', 'e', 'i', 'o'][i % 4]!, params: { method: 'artist.search' } })),
      },
    ],
    worker: { prefix: `test-${randomBytes(4).toString('hex')}`, httpPort: 0, concurrency: 2 },
  };
}

/** The cluster in REDIS_CLUSTER_NODES, REDIS_URL emptied so that it is the only Redis named. */
const clusterEnv = () => ({ REDIS_URL: '', REDIS_CLUSTER_NODES: cluster.nodes.join(','), DATABASE_URL: database.url });

async function spawn(command: string, file: string, env = clusterEnv()) {
  const process = await startedFeedsync([command, '--config', file], env);
  processes.push(process);
  return process;
}

const tickCount = async () => Number((await database.pool.query<{ n: string }>('select count(*) as n from job_ticks')).rows[0]!.n);

describe('feedsync on a 3-master Redis Cluster', () => {
  it('runs a tick queued with enqueue --wait to success, every queue key under its queue hash tag', async () => {
    const tree = config();
    const file = await writeConfig(tree);
    await spawn('worker', file);
    const enqueue = startFeedsync(['enqueue', 'artists', '--wait', '--config', file], clusterEnv());
    processes.push(enqueue);
    const { code } = await enqueue.exited;
    expect(code, enqueue.output()).toBe(0);
    expect(enqueue.output()).toMatch(/: succeeded; \d+ pages/);
    const { rows } = await database.pool.query<{ n: string }>(`select count(*) as n from records where kind = 'artist'`);
    expect(Number(rows[0]!.n)).toBe(await artistSearchTotal(simulator, 'a'));
    // Each queue's keys share its tag's slot (BullMQ's scripts need that); no key is untagged.
    const client = new Cluster(cluster.nodes.map((url) => ({ host: '127.0.0.1', port: Number(new URL(url).port) })));
    try {
      // The client knows the masters once it has read the slot map.
      await client.ping();
      const keys = (await Promise.all(client.nodes('master').map((node) => node.keys(`${tree.worker!.prefix}:*`)))).flat();
      const queueKeys = keys.filter((key) => !key.includes(':ratelimit:'));
      expect(queueKeys.length).toBeGreaterThan(0);
      expect(queueKeys.filter((key) => !key.startsWith(`${tree.worker!.prefix}:{sync}:`) && !key.startsWith(`${tree.worker!.prefix}:{notify}:`) && key !== `${tree.worker!.prefix}:reconciler`)).toEqual([]);
    } finally {
      client.disconnect();
    }
  }, 60_000);

  it('fires a per-second schedule once per tick with two schedulers and a worker on the cluster', async () => {
    const file = await writeConfig(config('* * * * * *'));
    const schedulers = await Promise.all([spawn('scheduler', file), spawn('scheduler', file)]);
    await spawn('worker', file);
    await waitFor('four ticks', async () => (await tickCount()) >= 4, 30_000);
    for (const scheduler of schedulers) scheduler.kill('SIGTERM');
    await Promise.all(schedulers.map((scheduler) => scheduler.exited));
    const { rows } = await database.pool.query<{ n: string }>(`select count(*) as n from job_ticks where trigger = 'schedule' group by scheduled_for`);
    expect(rows.length).toBeGreaterThanOrEqual(4);
    expect(rows.every((row) => row.n === '1')).toBe(true);
    await waitFor('every scheduled run to end', async () => {
      const { rows: open } = await database.pool.query(`select 1 from sync_runs where status in ('queued', 'running')`);
      return open.length === 0;
    }, 30_000);
    const { rows: runs } = await database.pool.query<{ status: string }>('select distinct status from sync_runs');
    expect(runs.map((run) => run.status)).toEqual(['succeeded']);
  }, 60_000);

  it('holds a source rate limit across two workers on the cluster, measured at the simulator', async () => {
    const file = await writeConfig(config(undefined, { max: 5, durationMs: 1000 }, 4));
    const workers = await Promise.all([spawn('worker', file), spawn('worker', file)]);
    simulator.resetStats();
    const enqueue = startFeedsync(['enqueue', 'artists', '--wait', '--config', file], clusterEnv());
    processes.push(enqueue);
    const { code } = await enqueue.exited;
    expect(code, `${enqueue.output()}\n${workers.map((worker) => worker.output()).join('\n')}`).toBe(0);
    const stats = simulator.stats().music;
    // Four searches of several pages each: more than twice the limit in all.
    expect(stats.count).toBeGreaterThan(10);
    expect(stats.maxPerSecond).toBeLessThanOrEqual(5);
  }, 90_000);

  it('refuses REDIS_URL naming one node of the cluster before enqueue writes anything to Postgres', async () => {
    const file = await writeConfig(config());
    const enqueue = startFeedsync(['enqueue', 'artists', '--config', file], { REDIS_URL: cluster.nodes[0]!, DATABASE_URL: database.url });
    const { code } = await enqueue.exited;
    expect(code).not.toBe(0);
    expect(enqueue.output()).toMatch(/REDIS_URL names a node of a Redis Cluster.*REDIS_CLUSTER_NODES/);
    expect(await tickCount()).toBe(0);
  });

  it('stops a worker whose REDIS_URL names one node of the cluster at start, with that error once', async () => {
    const file = await writeConfig(config());
    const worker = startFeedsync(['worker', '--config', file], { REDIS_URL: cluster.nodes[0]!, DATABASE_URL: database.url });
    processes.push(worker);
    const { code } = await worker.exited;
    expect(code).not.toBe(0);
    expect(worker.output().match(/REDIS_URL names a node of a Redis Cluster/g)).toHaveLength(1);
  });
});
