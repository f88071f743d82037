import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../src/config/schema.js';
import { startSimulator, type Simulator } from '../../src/simulator/startSimulator.js';
import { simulatorSources } from '../support/syncFixture.js';
import { startedFeedsync, startFeedsync, writeConfig, type FeedsyncProcess } from '../support/feedsyncProcess.js';
import { startRedisSentinel } from '../support/redis/redisSentinel.js';
import { startTlsRedis } from '../support/redis/redisTls.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';

let simulator: Simulator;
let database: TestDatabase;
const processes: FeedsyncProcess[] = [];
const stops: (() => Promise<void>)[] = [];

beforeAll(async () => {
  [simulator, database] = await Promise.all([startSimulator({ seed: 9, music: { artists: 200, users: 2, playsPerUser: 10 }, chain: { initialHead: 100, blockIntervalMs: 0 } }), createTestDatabase()]);
});
afterEach(async () => {
  for (const process of processes.splice(0)) {
    if (process.child.exitCode === null && process.child.signalCode === null) process.kill('SIGKILL');
    await process.exited;
  }
  await Promise.all(stops.splice(0).map((stop) => stop()));
  await database.pool.query('truncate job_ticks, sync_runs, envelopes, dead_letters, records, notices, notice_attempts, incremental_cursors');
});
afterAll(async () => {
  await Promise.all([simulator?.close(), database?.drop()]);
});

async function artistsConfig(): Promise<string> {
  const sources = simulatorSources(simulator);
  sources.music!.rateLimit = { max: 50, durationMs: 1000 };
  const tree: ConfigInput = {
    sources,
    jobs: [{ name: 'artists', source: 'music', records: { path: 'results.artistmatches.artist', kind: 'artist' }, paging: { limit: 50 }, queries: [{ q: 'a', params: { method: 'artist.search' } }] }],
    worker: { prefix: `test-${randomBytes(4).toString('hex')}`, httpPort: 0 },
  };
  return writeConfig(tree);
}

/** A worker and `enqueue --wait` on the Redis these variables name: the run's line, once it ended. */
async function syncThrough(redisEnv: Record<string, string>): Promise<string> {
  const env = { REDIS_URL: '', ...redisEnv, DATABASE_URL: database.url };
  const file = await artistsConfig();
  processes.push(await startedFeedsync(['worker', '--config', file], env));
  const enqueue = startFeedsync(['enqueue', 'artists', '--wait', '--config', file], env);
  processes.push(enqueue);
  const { code } = await enqueue.exited;
  expect(code, enqueue.output()).toBe(0);
  return enqueue.output();
}

describe('feedsync on other Redis topologies', () => {
  it('syncs through a master found by Sentinel (REDIS_SENTINELS, REDIS_SENTINEL_MASTER)', async () => {
    const sentinel = await startRedisSentinel();
    stops.push(() => sentinel.stop());
    expect(await syncThrough({ REDIS_SENTINELS: sentinel.sentinelUrl, REDIS_SENTINEL_MASTER: sentinel.name })).toMatch(/: succeeded; \d+ pages/);
  }, 60_000);

  it('syncs over TLS (rediss://) with the CA from REDIS_TLS_CA_FILE', async () => {
    const tls = await startTlsRedis();
    stops.push(() => tls.stop());
    expect(await syncThrough({ REDIS_URL: tls.url, REDIS_TLS_CA_FILE: tls.caFile })).toMatch(/: succeeded; \d+ pages/);
  }, 60_000);

  it('refuses a TLS Redis whose certificate no CA it was given has signed', async () => {
    const tls = await startTlsRedis();
    stops.push(() => tls.stop());
    const file = await artistsConfig();
    const enqueue = startFeedsync(['enqueue', 'artists', '--config', file], { REDIS_URL: tls.url, DATABASE_URL: database.url });
    processes.push(enqueue);
    const { code } = await enqueue.exited;
    expect(code).not.toBe(0);
    expect(enqueue.output()).toMatch(/self[- ]signed certificate|unable to verify|SELF_SIGNED/i);
  }, 60_000);
});
