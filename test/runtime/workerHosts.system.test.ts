import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../src/config/schema.js';
import type { PostgresServer } from '../../src/localstack/postgresServer.js';
import type { RedisServer } from '../../src/localstack/redisServer.js';
import { enqueueByCli, startedFeedsync, waitFor, writeConfig, type FeedsyncProcess } from '../support/feedsyncProcess.js';
import { createNetwork, type Network } from '../support/netns/createNetwork.js';
import { startPostgresOn, startRedisOn } from '../support/netns/startHostServers.js';
import { startSimulatorOn, type HostSimulator } from '../support/netns/startHostSimulator.js';
import { putFaults, readStats, resetStats } from '../support/simulatorAdmin.js';
import { simulatorSources } from '../support/syncFixture.js';
import { createTemplateDatabase } from '../support/templateDatabase.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';

/**
 * feedsync on several machines: Postgres, Redis, the simulator and each worker and scheduler on a
 * host of its own (a network namespace), all talking over the network's addresses, none over
 * loopback. Needs root and iproute2: without them the file fails, saying why (CI runs as root).
 */

const WORKERS = ['worker-1', 'worker-2', 'worker-3'];
const SCHEDULERS = ['scheduler-1', 'scheduler-2'];

let network: Network | undefined;
let postgres: PostgresServer | undefined;
let redis: RedisServer | undefined;
let simulator: HostSimulator | undefined;
let templateDatabase: string;
let database: TestDatabase;
const processes: FeedsyncProcess[] = [];

beforeAll(async () => {
  network = await createNetwork(['postgres', 'redis', 'simulator', ...WORKERS, ...SCHEDULERS]);
  [postgres, redis, simulator] = await Promise.all([
    startPostgresOn(network, network.host('postgres')),
    startRedisOn(network.host('redis')),
    // A few hundred plays a user at most: a run of a user's plays is a few pages.
    startSimulatorOn(network.host('simulator'), ['--users', '100', '--plays-per-user', '30', '--block-interval-ms', '0']),
  ]);
  templateDatabase = await createTemplateDatabase(postgres.url);
}, 60_000);

afterAll(async () => {
  try {
    await simulator?.stop();
    await redis?.stop();
    await postgres?.stop();
  } finally {
    // Also ends whatever the steps above left running on the hosts.
    await network?.remove();
  }
}, 60_000);

beforeEach(async () => {
  database = await createTestDatabase(undefined, { url: postgres!.url, templateDatabase });
  await resetStats(simulator!.urls.adminUrl);
});

afterEach(async () => {
  try {
    // Each test has a queue prefix and a database of its own: nothing of its processes needs a drain.
    for (const process of processes.splice(0)) {
      if (process.child.exitCode === null && process.child.signalCode === null) process.kill('SIGKILL');
      await process.exited;
    }
    await putFaults(simulator!.urls.adminUrl, 'music', {});
  } finally {
    await database.drop();
  }
});

/** A config on the simulator's upstreams with a queue prefix of its own; `rateLimit` on the explorer. */
function config(jobs: ConfigInput['jobs'], rateLimit?: { max: number; durationMs: number }): ConfigInput {
  const sources = simulatorSources(simulator!.urls);
  if (rateLimit) sources.explorer = { ...sources.explorer!, rateLimit };
  return { sources, jobs, worker: { prefix: `hosts-${randomBytes(4).toString('hex')}`, httpPort: 0 } };
}

const env = (): Record<string, string> => ({ REDIS_URL: redis!.url, DATABASE_URL: database.url, LOG_LEVEL: 'info' });

/** `feedsync <command>` on the host of that name, once it has started. */
async function startOn(hostName: string, command: 'worker' | 'scheduler', configFile: string): Promise<FeedsyncProcess> {
  const process = await startedFeedsync([command, '--config', configFile], env(), network!.host(hostName).exec);
  processes.push(process);
  return process;
}

/** One-page runs: a block each. */
const blockQueries = (count: number) => Array.from({ length: count }, (_, n) => ({ q: String(n + 1), params: { module: 'block', action: 'getblock' } }));

/** Queues a tick of `job` ("sync now"), waits for its last run to end, and gives its seconds from opening to end (Postgres's clock). */
async function tickSeconds(job: string, configFile: string): Promise<number> {
  await enqueueByCli(job, configFile, env());
  const tick = await waitFor(`the ${job} tick to end`, async () => {
    const { rows } = await database.pool.query<{ status: string; seconds: number }>(
      'select status, extract(epoch from finished_at - started_at)::float8 as seconds from job_ticks where job = $1 and finished_at is not null',
      [job],
    );
    return rows[0];
  }, 60_000);
  expect(tick.status).toBe('succeeded');
  return tick.seconds;
}

describe('worker hosts on a network of namespaces', () => {
  it('has two schedulers on hosts of their own open exactly one tick, with one run, per cron firing', async () => {
    const tree = config([
      // `queue`: a firing while the last run waits (there is no worker) still opens its tick; `skip` would leave its run out.
      { name: 'every-second', source: 'explorer', schedule: { cron: '* * * * * *' }, overlap: 'queue', records: { path: 'result', key: 'number', kind: 'block' }, queries: blockQueries(1) },
    ]);
    const file = await writeConfig(tree);
    const schedulers = await Promise.all(SCHEDULERS.map((host) => startOn(host, 'scheduler', file)));
    const tickSecondsOf = async (): Promise<number[]> =>
      (await database.pool.query<{ at: Date }>(`select scheduled_for as at from job_ticks where trigger = 'schedule' order by 1`)).rows.map((row) => row.at.getTime() / 1000);
    await waitFor('five ticks', async () => (await tickSecondsOf()).length >= 5, 30_000);
    for (const scheduler of schedulers) scheduler.kill('SIGTERM');
    await Promise.all(schedulers.map((scheduler) => scheduler.exited));

    const ticks = await tickSecondsOf();
    // Every second from the first to the last, each once.
    expect(ticks.slice(1).map((second, index) => second - ticks[index]!)).toEqual(ticks.slice(1).map(() => 1));
    const { rows } = await database.pool.query<{ runs: number }>('select count(*)::int as runs from sync_runs where scheduled_for is not null group by scheduled_for');
    expect(rows.map((row) => row.runs)).toEqual(ticks.map(() => 1));
  }, 60_000);

  it("never lets three worker hosts together send a source more requests than its rate limit allows in any window", async () => {
    const limit = { max: 5, durationMs: 1000 };
    const runs = 30;
    const file = await writeConfig(config([{ name: 'blocks', source: 'explorer', records: { path: 'result', key: 'number', kind: 'block' }, queries: blockQueries(runs) }], limit));
    const workers = await Promise.all(WORKERS.map((host) => startOn(host, 'worker', file)));
    await resetStats(simulator!.urls.adminUrl);
    await tickSeconds('blocks', file);

    // Arrivals as the simulator counted them, on its own clock: most in any sliding second.
    const stats = await readStats(simulator!.urls.adminUrl, 'explorer');
    expect(stats.count).toBe(runs);
    expect(stats.maxPerSecond).toBe(limit.max);
    // Every host sent some of them: the limit held across hosts, not within one.
    expect(workers.map((worker) => worker.output().includes('run succeeded'))).toEqual(WORKERS.map(() => true));
  }, 60_000);

  it('ends a latency-bound fan-out tick sooner on three worker hosts than on one', async () => {
    await putFaults(simulator!.urls.adminUrl, 'music', { latencyMs: 50 });
    const users = Array.from({ length: 24 }, (_, n) => `us-${String(n + 1).padStart(4, '0')}`);
    // The same runs under two job names, each storing a records kind of its own: both ticks store every record anew.
    const job = (name: string): ConfigInput['jobs'][number] => ({
      name,
      source: 'music',
      records: { path: 'recenttracks.track', key: ['$query', 'id'], kind: `listen_${name.replace('-', '_')}` },
      paging: { limit: 10 },
      queries: [{ params: { method: 'user.getRecentTracks' }, forEach: { values: users } }],
    });
    const file = await writeConfig(config([job('one-host'), job('three-hosts')]));

    await startOn(WORKERS[0]!, 'worker', file);
    const oneHost = await tickSeconds('one-host', file);
    await Promise.all(WORKERS.slice(1).map((host) => startOn(host, 'worker', file)));
    const threeHosts = await tickSeconds('three-hosts', file);

    expect(threeHosts, `${threeHosts.toFixed(2)} s on three hosts, ${oneHost.toFixed(2)} s on one`).toBeLessThan(oneHost);
  }, 60_000);
});
