import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { migrateDatabase } from '../../src/storage/database/database.js';
import { BUILT_CLI, ensureBuilt } from '../deploy/builtCli.js';
import { createNetwork, type Network } from '../support/netns/createNetwork.js';
import { startPostgresOn, startRedisOn } from '../support/netns/startHostServers.js';
import { startSimulatorOn, type SimulatorUrls } from '../support/netns/startHostSimulator.js';
import { putFaults } from '../support/simulatorAdmin.js';
import { waitFor } from '../support/waitFor.js';
import type { Target } from './report.js';
import { shippedEnv, startWorkerChild, type WorkerChild } from './workerChild.js';

/** One tick's rate at one number of worker hosts. */
export interface HostsPoint {
  hosts: number;
  runs: number;
  /** From the tick's opening to its last run's end, on Postgres's clock. */
  seconds: number;
  runsPerS: number;
}

export interface HostsScaling {
  /** Fan-out values of the measured tick: one run each. */
  values: number;
  latencyMs: number;
  /** worker.concurrency of every host. */
  concurrency: number;
  /** In the order measured: 1, 2 and 4 hosts. */
  points: HostsPoint[];
}

/** What every answer of the upstream waits: far more than feedsync's own time per page, so that hosts, not CPU, bound the tick. */
const LATENCY_MS = 50;
/** Runs a host takes at once: its share of the tick's requests in flight. */
const CONCURRENCY = 4;
const HOST_COUNTS = [1, 2, 4] as const;
/** Plays per user: 15 to 44, so two to five pages of 10 a run. */
const PLAYS_PER_USER = 30;
const PAGE_LIMIT = 10;
const TICK_TIMEOUT_MS = 600_000;
const run = promisify(execFile);

/** The simulator's users are us-0000 on. */
const userId = (n: number): string => `us-${String(n).padStart(4, '0')}`;

/**
 * A job per measured tick and per warm-up, each a fan-out over users' recent plays under a
 * records kind of its own, so every tick stores all its records anew.
 */
function hostsConfig(sim: SimulatorUrls, values: number): Record<string, unknown> {
  const users = Array.from({ length: values }, (_, n) => userId(n));
  const job = (name: string, count: number) => ({
    name,
    source: 'music',
    records: { path: 'recenttracks.track', key: ['$query', 'id'], kind: name.replaceAll('-', '_') },
    queries: [{ params: { method: 'user.getRecentTracks' }, forEach: { values: users.slice(0, count) } }],
  });
  return {
    sources: { music: { baseUrl: sim.musicBaseUrl, apiKey: sim.apiKey, path: '/2.0/', timeoutMs: 60_000, paging: { limit: PAGE_LIMIT } } },
    // Every host takes part in its warm-up: twice the runs all of them take at once.
    jobs: HOST_COUNTS.flatMap((hosts) => [job(`hosts-${hosts}-warmup`, Math.min(values, hosts * CONCURRENCY * 2)), job(`hosts-${hosts}`, values)]),
    worker: { concurrency: CONCURRENCY, attempts: 1, httpPort: 0, prefix: `bench-hosts-${randomBytes(4).toString('hex')}` },
  };
}

interface Servers {
  network: Network;
  sim: SimulatorUrls;
  redisUrl: string;
  databaseUrl: string;
}

/**
 * A latency-bound tick's runs/s on 1, 2 and 4 worker hosts: Postgres, Redis, the simulator and
 * each worker on a network namespace host of its own (test/support/netns), the upstream answering
 * after {@link LATENCY_MS}. At each count, fresh workers (`feedsync worker` as it ships), an untimed
 * warm-up tick, then the measured tick of `values` runs of a few pages; its clock runs from the
 * tick's opening (`feedsync enqueue`) to its last run's end. Needs root and iproute2.
 */
export async function measureHostsScaling(values: number, say: (line: string) => void): Promise<HostsScaling> {
  // Once, before the workers that each check it start together.
  await ensureBuilt();
  const network = await createNetwork(['postgres', 'redis', 'simulator', ...Array.from({ length: Math.max(...HOST_COUNTS) }, (_, n) => `worker-${n + 1}`)]);
  try {
    const [postgres, redis, simulator] = await Promise.all([
      startPostgresOn(network, network.host('postgres')),
      startRedisOn(network.host('redis')),
      startSimulatorOn(network.host('simulator'), ['--users', String(values), '--plays-per-user', String(PLAYS_PER_USER), '--block-interval-ms', '0']),
    ]);
    try {
      await migrateDatabase(postgres.url);
      await putFaults(simulator.urls.adminUrl, 'music', { latencyMs: LATENCY_MS });
      const servers = { network, sim: simulator.urls, redisUrl: redis.url, databaseUrl: postgres.url };
      const tree = hostsConfig(simulator.urls, values);
      const points: HostsPoint[] = [];
      for (const hosts of HOST_COUNTS) {
        const point = await measureOnHosts(servers, tree, hosts);
        say(`   ${hosts} host${hosts > 1 ? 's' : ''}: ${point.runsPerS.toFixed(1)} runs/s (${point.seconds.toFixed(2)} s)`);
        points.push(point);
      }
      return { values, latencyMs: LATENCY_MS, concurrency: CONCURRENCY, points };
    } finally {
      await simulator.stop();
      await redis.stop();
      await postgres.stop();
    }
  } finally {
    await network.remove();
  }
}

async function measureOnHosts(servers: Servers, tree: Record<string, unknown>, hosts: number): Promise<HostsPoint> {
  const dir = await mkdtemp(join(tmpdir(), 'feedsync-bench-hosts-'));
  const configFile = join(dir, 'config.json');
  await writeFile(configFile, JSON.stringify(tree));
  const workers: WorkerChild[] = [];
  try {
    const started = await Promise.allSettled(
      Array.from({ length: hosts }, (_, n) => {
        const host = servers.network.host(`worker-${n + 1}`);
        return startWorkerChild({ configTree: tree, redisUrl: servers.redisUrl, databaseUrl: servers.databaseUrl, commandPrefix: host.exec, httpHost: host.address });
      }),
    );
    for (const result of started) if (result.status === 'fulfilled') workers.push(result.value);
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    await runTick(servers, configFile, `hosts-${hosts}-warmup`);
    const { runs, seconds } = await runTick(servers, configFile, `hosts-${hosts}`);
    return { hosts, runs, seconds, runsPerS: runs / seconds };
  } finally {
    await Promise.all(workers.map((worker) => worker.stop()));
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * `feedsync enqueue <job>` from this machine's root namespace, then the tick's runs and seconds
 * once it has ended; fails unless every run succeeded.
 */
async function runTick(servers: Servers, configFile: string, job: string): Promise<{ runs: number; seconds: number }> {
  const env = { ...shippedEnv(), REDIS_URL: servers.redisUrl, DATABASE_URL: servers.databaseUrl, LOG_LEVEL: 'warn' };
  await run(process.execPath, [BUILT_CLI, 'enqueue', job, '--config', configFile], { env });
  const client = new pg.Client({ connectionString: servers.databaseUrl, application_name: 'feedsync-bench-hosts' });
  await client.connect();
  try {
    const tick = await waitFor(`the ${job} tick to end`, async () => {
      const { rows } = await client.query<{ status: string; runs: number; succeeded: number; seconds: number }>(
        'select status, runs_total as runs, runs_succeeded as succeeded, extract(epoch from finished_at - started_at)::float8 as seconds from job_ticks where job = $1 and finished_at is not null',
        [job],
      );
      return rows[0];
    }, TICK_TIMEOUT_MS);
    if (tick.status !== 'succeeded' || tick.succeeded !== tick.runs) throw new Error(`the ${job} tick ended ${tick.status}, ${tick.succeeded} of ${tick.runs} runs succeeded`);
    return { runs: tick.runs, seconds: tick.seconds };
  } finally {
    await client.end();
  }
}

/** The measured tick's runs/s on `hosts` hosts. */
export function runsPerSOn(scaling: HostsScaling, hosts: number): number {
  const point = scaling.points.find((candidate) => candidate.hosts === hosts);
  if (point === undefined) throw new Error(`no tick was measured on ${hosts} hosts`);
  return point.runsPerS;
}

/** Runs/s on `hosts` hosts over runs/s on one. */
export function hostsScalingOf(scaling: HostsScaling, hosts: number): number {
  return Number((runsPerSOn(scaling, hosts) / runsPerSOn(scaling, 1)).toFixed(3));
}

/**
 * Near-linear: a host's runs wait on the upstream, not on feedsync, so hosts add up; what they
 * share (Postgres, Redis, the machine's cores) may take some of it at four.
 */
const WANTED: readonly { hosts: number; atLeast: number }[] = [
  { hosts: 2, atLeast: 1.8 },
  { hosts: 4, atLeast: 3 },
];

export function hostsScalingTargets(scaling: HostsScaling): Target[] {
  return WANTED.map(({ hosts, atLeast }) => {
    const value = hostsScalingOf(scaling, hosts);
    return { name: `latency-bound tick on ${hosts} worker hosts vs 1 (runs/s)`, wanted: `>= ${atLeast}`, value, met: value >= atLeast };
  });
}

/** The report's row: #, measurement, size, result, note. */
export function hostsScalingRow(scaling: HostsScaling): string[] {
  return [
    '10',
    'latency-bound fan-out tick on 1 / 2 / 4 worker hosts (network namespaces)',
    `${scaling.values.toLocaleString('en-US')} runs, concurrency ${scaling.concurrency} a host, upstream ${scaling.latencyMs} ms`,
    `${scaling.points.map((point) => point.runsPerS.toFixed(1)).join(' / ')} runs/s`,
    WANTED.map(({ hosts }) => `x${hostsScalingOf(scaling, hosts)} on ${hosts}`).join(', '),
  ];
}
