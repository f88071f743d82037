import { randomBytes } from 'node:crypto';
import type { RedisClient } from '../../src/redis/RedisTarget.js';
import { rateLimitKey } from '../../src/http/RedisRateLimiter.js';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import { findJob } from '../../src/config/jobs/resolveQuery.js';
import { openRunStore } from '../../src/storage/runStore.js';
import { planTick } from '../../src/sync/planTick.js';
import type { ConfigInput } from '../../src/config/schema.js';
import { openRedis } from '../../src/redis/openRedis.js';
import { WorkerProcess } from '../../src/runtime/WorkerProcess.js';
import { startSimulator, type Simulator } from '../../src/simulator/startSimulator.js';
import { startFeedsync, waitFor, writeConfig } from '../support/feedsyncProcess.js';
import { capturingLogger, simulatorSources } from '../support/syncFixture.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';

let simulator: Simulator;
let database: TestDatabase;
let worker: WorkerProcess;
let configFile: string;
let tree: ConfigInput;
let redis: RedisClient;

beforeAll(async () => {
  simulator = await startSimulator({ seed: 12, music: { artists: 300, users: 3, playsPerUser: 30 }, chain: { initialHead: 200, blockIntervalMs: 0 } });
  database = await createTestDatabase();
  tree = {
    sources: simulatorSources(simulator),
    jobs: [
      { name: 'artists', source: 'music', records: { path: 'results.artistmatches.artist', kind: 'artist' }, queries: [{ q: 'a', params: { method: 'artist.search' } }] },
      { name: 'broken', source: 'music', records: { path: 'x', kind: 'artist' }, queries: [{ q: 'a', params: { method: 'artist.nope' } }] },
      {
        name: 'users',
        source: 'music',
        records: { path: 'recenttracks.track', key: ['$query', 'id'], kind: 'listen' },
        queries: [{ params: { method: 'user.getRecentTracks' }, forEach: { values: ['us-0000', 'us-0001'] } }],
      },
    ],
    // Both kinds of notice: the tests below read each run's.
    webhook: { baseUrl: simulator.webhookBaseUrl, uuid: simulator.webhookUuid, notices: 'both' },
    worker: { prefix: `test-${randomBytes(4).toString('hex')}`, httpPort: 0, attempts: 1 },
  };
  configFile = await writeConfig(tree);
  redis = openRedis(inject('redisUrl'), 'worker');
  worker = await WorkerProcess.open({ config: parseConfig(tree, 'test', {}), redis: inject('redisUrl'), databaseUrl: database.url, logger: capturingLogger().logger, roles: { worker: true, scheduler: false } });
  await worker.start();
}, 60_000);
afterAll(async () => {
  redis.disconnect();
  await worker.close();
  await simulator.close();
  await database.drop();
});

/** Commands that read no config file: `config` takes its own argument, and the notice list reads only Postgres. */
const takesConfig = (args: string[]) => args[0] !== 'config' && !(args[0] === 'notices' && args[1] !== 'redeliver');

async function feedsync(...args: string[]) {
  const process = startFeedsync([...args, ...(takesConfig(args) ? ['--config', configFile] : [])], { REDIS_URL: inject('redisUrl'), DATABASE_URL: database.url, LOG_LEVEL: 'warn' });
  const { code } = await process.exited;
  return { code, output: process.output() };
}

/** The test config with a rate limit on one source (music, the artists job's, by default), under a Redis prefix of its own. */
async function rateLimitedConfig(limited: 'music' | 'explorer' = 'music', rateLimit = { max: 1000, durationMs: 60_000 }): Promise<{ file: string; key: string }> {
  const prefix = `test-${randomBytes(4).toString('hex')}`;
  const sources = { ...tree.sources, [limited]: { ...tree.sources[limited]!, rateLimit } };
  const file = await writeConfig({ ...tree, sources, worker: { ...tree.worker, prefix } });
  return { file, key: rateLimitKey(prefix, limited, rateLimit) };
}

async function runArtists(file: string, redisUrl: string) {
  const process = startFeedsync(['run', 'artists', '--config', file], { REDIS_URL: redisUrl, DATABASE_URL: database.url, LOG_LEVEL: 'warn' });
  const { code } = await process.exited;
  return { code, output: process.output() };
}

/** Queues a run of `job` with `enqueue --wait`, which returns once a worker has finished it; the run's id. */
async function finishedRun(job: string): Promise<string> {
  const { code, output } = await feedsync('enqueue', job, '--wait');
  expect(code, output).toBe(0);
  return output.split('\n')[0]!;
}

/** The run's notice once the outbox has delivered it. */
function deliveredNotice(runId: string): Promise<{ id: string }> {
  return waitFor('the notice to be delivered', async () => {
    const { rows } = await database.pool.query<{ id: string; state: string }>('select id, state from notices where run_id = $1', [runId]);
    return rows[0]?.state === 'delivered' && rows[0];
  });
}

describe('feedsync commands', () => {
  it('run syncs a job in-process and prints its summary', async () => {
    const { code, output } = await feedsync('run', 'artists');
    expect(code, output).toBe(0);
    expect(output).toMatch(/artists run [0-9a-f-]{36}: succeeded \(short_page\); \d+ pages, \d+ new/);
  });

  it('run with REDIS_URL counts every request in the rate limit the workers share', async () => {
    const { file, key } = await rateLimitedConfig();
    simulator.resetStats();
    const { code, output } = await runArtists(file, inject('redisUrl'));
    expect(code, output).toBe(0);
    const requests = simulator.stats().music.count;
    expect(requests).toBeGreaterThan(1);
    expect(await redis.zcard(key)).toBe(requests);
  });

  it('run without REDIS_URL holds the rate limit in its own process: the upstream sees at most max requests a second', async () => {
    // Two a second, and a run of more pages than that, which it fetches several at once unless held back.
    const { file } = await rateLimitedConfig('music', { max: 2, durationMs: 1000 });
    simulator.resetStats();
    const { code, output } = await runArtists(file, '');
    expect(code, output).toBe(0);
    const arrivals = simulator.stats().music;
    expect(arrivals.count).toBeGreaterThan(2);
    expect(arrivals.maxPerSecond).toBeLessThanOrEqual(2);
  });

  it('run needs no Redis when only another source has a rate limit, even with REDIS_URL set', async () => {
    const { file } = await rateLimitedConfig('explorer');
    const { code, output } = await runArtists(file, 'redis://127.0.0.1:1');
    expect(code, output).toBe(0);
    expect(output).toMatch(/artists run [0-9a-f-]{36}: succeeded/);
  });

  it('run names REDIS_URL, and not its password, when Redis cannot be reached for a shared rate limit', async () => {
    const { file } = await rateLimitedConfig();
    const { code, output } = await runArtists(file, 'redis://:s3cret@127.0.0.1:1');
    expect(code).toBe(1);
    expect(output).toContain('REDIS_URL: Redis did not answer');
    expect(output).not.toContain('s3cret');
  });

  it('run exits non-zero and names the upstream error when the run fails', async () => {
    const { code, output } = await feedsync('run', 'broken');
    expect(code).toBe(1);
    expect(output).toMatch(/failed: music: request rejected \(HTTP 400\)/);
  });

  it('run stops on Ctrl-C after the page in hand and records the run as failed, with its notice', async () => {
    simulator.setFaults('music', { latencyMs: 150 });
    const process = startFeedsync(['run', 'artists', '--config', configFile], { REDIS_URL: inject('redisUrl'), DATABASE_URL: database.url, LOG_LEVEL: 'info' });
    try {
      const runId = await waitFor('the run to start', async () => {
        const { rows } = await database.pool.query<{ id: string }>(`select id from sync_runs where job = 'artists' and status = 'running' and pages >= 1`);
        return rows[0]?.id;
      });
      process.kill('SIGINT');
      const { code } = await process.exited;
      expect(code).toBe(1);
      const { rows } = await database.pool.query<{ status: string; error: string; type: string }>(
        `select r.status, r.error, n.type from sync_runs r join notices n on n.run_id = r.id where r.id = $1`,
        [runId],
      );
      expect(rows[0]).toMatchObject({ status: 'failed', error: expect.stringMatching(/^interrupted after page \d+$/) as string, type: 'sync.failed' });
    } finally {
      simulator.setFaults('music', {});
    }
  });

  it('enqueue --wait prints the run id, waits for a worker to finish it, and exits 0', async () => {
    const { code, output } = await feedsync('enqueue', 'artists', '--wait');
    expect(code, output).toBe(0);
    const runId = output.split('\n')[0]!;
    expect(output).toContain(`${runId}: succeeded;`);
    const { rows } = await database.pool.query<{ status: string }>('select status from sync_runs where id = $1', [runId]);
    expect(rows[0]?.status).toBe('succeeded');
  });

  it('enqueue --wait exits non-zero when the run fails', async () => {
    const { code, output } = await feedsync('enqueue', 'broken', '--wait');
    expect(code).toBe(1);
    expect(output).toMatch(/failed: music: request rejected/);
  });

  it('enqueue fans a job out: a run per value, each run id printed, and the tick\'s line once they end', async () => {
    const { code, output } = await feedsync('enqueue', 'users', '--wait');
    expect(code, output).toBe(0);
    const runIds = output.split('\n').slice(0, 2);
    const { rows } = await database.pool.query<{ value: string; status: string }>('select fan_value as value, status from sync_runs where id = any($1) order by fan_value', [runIds]);
    expect(rows).toEqual([
      { value: 'us-0000', status: 'succeeded' },
      { value: 'us-0001', status: 'succeeded' },
    ]);
    expect(output).toMatch(/^users tick [0-9a-f-]{36}: succeeded; 2 runs: 2 succeeded, 0 partial, 0 failed, 0 skipped; /m);
  });

  it('enqueue --value runs one value of a fan-out job, listed or not', async () => {
    const { code, output } = await feedsync('enqueue', 'users', '--value', 'us-0002', '--wait');
    expect(code, output).toBe(0);
    const { rows } = await database.pool.query<{ value: string }>('select fan_value as value from sync_runs where id = $1', [output.split('\n')[0]]);
    expect(rows).toEqual([{ value: 'us-0002' }]);
    expect(output).toMatch(/^users tick [0-9a-f-]{36}: succeeded; 1 runs: 1 succeeded/m);
  });

  it('enqueue --value refuses a job without fan-out, naming it', async () => {
    const { code, output } = await feedsync('enqueue', 'artists', '--value', 'x');
    expect(code).toBe(1);
    expect(output).toContain('a value was given, but no query of job "artists" fans out (forEach)');
  });

  it('status --json reports a tick in progress with the runs it has done of all its runs', async () => {
    const store = openRunStore(database.db);
    const plan = await planTick(parseConfig(tree, 'test', {}), findJob(parseConfig(tree, 'test', {}), 'users'), store, { trigger: 'enqueue' });
    // Opened but not queued: the tick stays in progress, one of its runs ended by hand.
    await store.ticks.open(plan);
    const run = await store.claims.claim(plan.runs[0]!);
    await store.finishes.finish(run.id, { status: 'succeeded' }, () => undefined);
    const { code, output } = await feedsync('status', '--json');
    expect(code, output).toBe(0);
    const status = JSON.parse(output) as { ticks: { id: string; status: string; runs: { total: number; done: number } }[] };
    expect(status.ticks.find((tick) => tick.id === plan.id)).toMatchObject({ status: 'running', runs: { total: 2, done: 1 } });
  });

  it('status --json reports recent runs with their notice state and the queue counts', async () => {
    const runId = await finishedRun('artists');
    await deliveredNotice(runId);
    const { code, output } = await feedsync('status', '--json');
    expect(code, output).toBe(0);
    const status = JSON.parse(output) as { runs: { runId: string; job: string; status: string; notice: string | null }[]; queues: { sync: Record<string, number> } };
    expect(status.runs.find((run) => run.runId === runId)).toMatchObject({ job: 'artists', status: 'succeeded', notice: 'delivered' });
    expect(status.queues.sync).toHaveProperty('waiting');
    expect(status.queues.sync.completed).toBeGreaterThanOrEqual(1);
  });

  it('replay rebuilds a job’s records from its stored pages, printing each replay run and the tick', async () => {
    const ran = await feedsync('run', 'artists');
    expect(ran.code, ran.output).toBe(0);
    const { code, output } = await feedsync('replay', '--job', 'artists');
    expect(code, output).toBe(0);
    expect(output).toMatch(/artists replay run [0-9a-f-]{36}: succeeded; \d+ pages, 0 new, 0 updated, \d+ unchanged/);
  });

  it('replay says so and exits 0 when a job has no stored pages, and needs --job or --kind', async () => {
    const none = await feedsync('replay', '--job', 'artists', '--since', '2999-01-01');
    expect(none.code, none.output).toBe(0);
    expect(none.output).toContain('artists: no stored pages to replay since 2999-01-01T00:00:00.000Z');
    const neither = await feedsync('replay');
    expect(neither.code).not.toBe(0);
    expect(neither.output).toContain('replay needs either --job or --kind');
    const unknownKind = await feedsync('replay', '--kind', 'nope');
    expect(unknownKind.code).not.toBe(0);
    expect(unknownKind.output).toContain('--kind nope: no query of the config stores records of that kind (it has artist, listen)');
  });

  it('prune --dry-run prints what the jobs’ retention would remove and removes nothing; prune removes it', async () => {
    for (let n = 0; n < 2; n++) expect((await feedsync('run', 'artists')).code).toBe(0);
    const jobs = tree.jobs.map((job) => (job.name === 'artists' ? { ...job, retention: { envelopes: { keepLastRuns: 1 } } } : job));
    const file = await writeConfig({ ...tree, jobs });
    const envelopes = async () => Number((await database.pool.query<{ n: string }>(`select count(*) as n from envelopes e join sync_runs r on r.id = e.run_id where r.job = 'artists'`)).rows[0]!.n);
    const before = await envelopes();
    const env = { DATABASE_URL: database.url, LOG_LEVEL: 'warn' };
    const dry = startFeedsync(['prune', '--dry-run', '--config', file], env);
    expect((await dry.exited).code, dry.output()).toBe(0);
    const planned = Number(/would remove (\d+) envelopes/.exec(dry.output())?.[1]);
    expect(planned).toBeGreaterThan(0);
    expect(await envelopes()).toBe(before);
    const pruned = startFeedsync(['prune', '--config', file], env);
    expect((await pruned.exited).code, pruned.output()).toBe(0);
    expect(pruned.output()).toContain(`removed ${planned} envelopes`);
    expect(await envelopes()).toBe(before - planned);
  });

  it('status and notices need only DATABASE_URL and REDIS_URL, not the upstreams’ variables', async () => {
    const file = await writeConfig({
      ...tree,
      sources: { ...tree.sources, music: { ...tree.sources.music!, apiKey: '${STATUS_TEST_MUSIC_KEY}' } },
      webhook: { ...tree.webhook!, uuid: '${STATUS_TEST_WEBHOOK_UUID}' },
    });
    const env = { REDIS_URL: inject('redisUrl'), DATABASE_URL: database.url, LOG_LEVEL: 'warn' };
    for (const args of [['status', '--json', '--config', file], ['notices', '--json']]) {
      const process = startFeedsync(args, env);
      const { code } = await process.exited;
      expect(code, process.output()).toBe(0);
    }
  });

  it('notices lists notices and redeliver sends one again with the same webhook-id', async () => {
    const { id } = await deliveredNotice(await finishedRun('artists'));
    expect(simulator.requests(simulator.webhookUuid).filter((r) => r.headers['webhook-id'] === id)).toHaveLength(1);
    const listed = await feedsync('notices', '--json');
    expect((JSON.parse(listed.output) as { id: string; state: string }[]).find((n) => n.id === id)?.state).toBe('delivered');
    const redelivered = await feedsync('notices', 'redeliver', id);
    expect(redelivered.code, redelivered.output).toBe(0);
    await waitFor('the second delivery', () => simulator.requests(simulator.webhookUuid).filter((r) => r.headers['webhook-id'] === id).length === 2);
  }, 60_000);
});
