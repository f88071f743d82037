import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { request } from 'undici';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import { enqueueRuns } from '../../src/jobs/enqueueRuns.js';
import { openQueues } from '../../src/jobs/queues.js';
import { openRedis } from '../../src/redis/openRedis.js';
import { openStorage } from '../../src/storage/database/database.js';
import { KEPT_TIMESTAMPS } from '../../src/simulator/control/RequestStats.js';
import { openRunStore } from '../../src/storage/runStore.js';
import { benchConfigTree, RATE_BUDGET_JOB, RATE_BUDGET_KIND } from './benchConfig.js';
import type { Target } from './report.js';
import type { SimulatorUrls } from './simulatorProcess.js';
import { startWorkerChild, type WorkerChild } from './workerChild.js';

/** A source's rate limit and how many worker processes share it. */
export interface RateBudgetSetting {
  max: number;
  durationMs: number;
  workers: number;
}

export interface RateBudget extends RateBudgetSetting {
  windowSeconds: number;
  /** Requests the rate is measured over: a multiple of `max`, all within the window. */
  requests: number;
  achievedPerS: number;
  /** Most arrivals in any `durationMs` (sliding), from the first request to the window's end. */
  maxInAnyWindow: number;
  /** How long a slot took to come round, on average: `durationMs` plus what the limiter loses per request. */
  slotCycleMs: number;
}

export interface RateBudgetOptions {
  sim: SimulatorUrls;
  redisUrl: string;
  databaseUrl: string;
  setting: RateBudgetSetting;
  windowSeconds: number;
  nodeArgs?: string[];
}

/** Runs each worker process takes at once: plenty waiting on the limiter whenever a slot frees. */
const CONCURRENCY = 8;
/** The window starts this long after the first request: every worker has taken runs by then. */
const SETTLE_MS = 2_000;
/** How long requests have to start flowing once the runs are queued. */
const FIRST_REQUEST_TIMEOUT_MS = 60_000;

interface ExplorerStats {
  count: number;
  firstAt: number | null;
  /** Epoch ms in the simulator's clock (this machine's), oldest first. */
  timestamps: number[];
}

async function explorerStats(adminUrl: string): Promise<ExplorerStats> {
  const response = await request(`${adminUrl}/stats`);
  return ((await response.body.json()) as { data: { explorer: ExplorerStats } }).data.explorer;
}

/** The most of `sorted` in any half-open span of `spanMs`. */
function mostInAnySpan(sorted: readonly number[], spanMs: number): number {
  let most = 0;
  for (let start = 0, end = 0; end < sorted.length; end++) {
    while (sorted[end]! - sorted[start]! >= spanMs) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

/**
 * The rate over the window's arrivals: from its first to the one a whole number of budgets
 * (`max` requests) later, the last such in the window. Requests come in waves a slot's cycle
 * apart; a count over a fixed span would gain or lose a wave with where the span falls.
 */
function achieved(inWindow: readonly number[], max: number): Pick<RateBudget, 'requests' | 'achievedPerS' | 'slotCycleMs'> {
  const requests = Math.floor((inWindow.length - 1) / max) * max;
  if (requests <= 0) throw new Error(`${inWindow.length} requests reached the explorer in the window`);
  const slotCycleMs = ((inWindow[requests]! - inWindow[0]!) * max) / requests;
  return { requests, achievedPerS: (max * 1000) / slotCycleMs, slotCycleMs };
}

/**
 * A source's rate budget as the upstream sees it: `workers` worker processes on one config, the
 * explorer limited to `max` requests per `durationMs` (shared through Redis), many one-page runs
 * queued. Arrival times are the simulator's own (GET /stats, reset first). The window opens
 * {@link SETTLE_MS} after the first request and fails if the runs could run out before it ends.
 * The workers use a BullMQ prefix and a records kind of their own; their queues, runs and
 * records are removed after, since stopping them cuts runs.
 */
export async function measureRateBudget(options: RateBudgetOptions): Promise<RateBudget> {
  const { sim, setting, windowSeconds } = options;
  const perS = (setting.max * 1000) / setting.durationMs;
  // Twice what the window and its start can take: the runs must outlast it.
  const queries = Math.ceil(perS * (windowSeconds + SETTLE_MS / 1000 + 5) * 2);
  const prefix = `bench-rate-${randomBytes(4).toString('hex')}`;
  const { tree } = benchConfigTree({ sim, txJobs: [], rateBudgetQueries: queries, rateLimit: { max: setting.max, durationMs: setting.durationMs }, prefix, concurrency: CONCURRENCY });
  const config = parseConfig(tree, 'bench rate budget config', {});
  const connection = openRedis(options.redisUrl, 'worker');
  const queues = openQueues(connection, config.worker);
  const storage = openStorage(options.databaseUrl, { max: 2 });
  const workers: WorkerChild[] = [];
  try {
    for (let n = 0; n < setting.workers; n++) workers.push(await startWorkerChild({ configTree: tree, redisUrl: options.redisUrl, databaseUrl: options.databaseUrl, nodeArgs: options.nodeArgs }));
    await request(`${sim.adminUrl}/stats/reset`, { method: 'POST' }).then((response) => response.body.dump());
    await enqueueRuns(config, openRunStore(storage.db), queues, RATE_BUDGET_JOB);
    const firstAt = await firstRequestAt(sim.adminUrl);
    const windowStart = firstAt + SETTLE_MS;
    const windowEnd = windowStart + windowSeconds * 1000;
    // A request under way at the window's end is counted when it arrives: a moment's grace.
    await sleep(Math.max(0, windowEnd + 200 - Date.now()));
    const stats = await explorerStats(sim.adminUrl);
    const arrivals = stats.timestamps.filter((at) => at < windowEnd);
    if (stats.count > KEPT_TIMESTAMPS) throw new Error(`the simulator kept ${KEPT_TIMESTAMPS} of ${stats.count} arrival times`);
    if (arrivals.length >= queries) throw new Error(`the ${queries} runs ran out before the window's end (max ${setting.max}, ${setting.workers} workers)`);
    return { ...setting, windowSeconds, ...achieved(arrivals.filter((at) => at >= windowStart), setting.max), maxInAnyWindow: mostInAnySpan(arrivals, setting.durationMs) };
  } finally {
    await Promise.all(workers.map((worker) => worker.stop().catch(() => undefined)));
    await queues.sync.obliterate({ force: true }).catch(() => undefined);
    await queues.notify.obliterate({ force: true }).catch(() => undefined);
    await connection.del(`${prefix}:ratelimit:explorer`).catch(() => undefined);
    await queues.close().catch(() => undefined);
    connection.disconnect();
    await storage.close().catch(() => undefined);
    await removeRuns(options.databaseUrl);
  }
}

/** Polls the simulator until the explorer has had a request; its arrival time. */
async function firstRequestAt(adminUrl: string): Promise<number> {
  const deadline = Date.now() + FIRST_REQUEST_TIMEOUT_MS;
  for (;;) {
    const stats = await explorerStats(adminUrl);
    if (stats.firstAt !== null) return stats.firstAt;
    if (Date.now() > deadline) throw new Error(`no request reached the explorer within ${FIRST_REQUEST_TIMEOUT_MS} ms of the runs' enqueue`);
    await sleep(50);
  }
}

/**
 * The rate-budget job's ticks and runs (their envelopes, notices and dead letters go with them),
 * its records kind, and the bodies of its envelopes that no other envelope refers to.
 */
async function removeRuns(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'feedsync-bench-rate-budget' });
  await client.connect();
  try {
    await client.query('begin');
    const { rows } = await client.query<{ content_hash: string }>(
      'select distinct e.content_hash from envelopes e join sync_runs r on r.id = e.run_id where r.job = $1',
      [RATE_BUDGET_JOB],
    );
    await client.query('delete from sync_runs where job = $1', [RATE_BUDGET_JOB]);
    await client.query('delete from job_ticks where job = $1', [RATE_BUDGET_JOB]);
    await client.query('delete from records where kind = $1', [RATE_BUDGET_KIND]);
    await client.query(
      'delete from page_bodies b where b.content_hash = any($1::text[]) and not exists (select 1 from envelopes e where e.content_hash = b.content_hash)',
      [rows.map((row) => row.content_hash)],
    );
    await client.query('commit');
  } finally {
    await client.end();
  }
}

/** Achieved against the limit, and never over it. */
export function rateBudgetTargets(budgets: readonly RateBudget[]): Target[] {
  return budgets.flatMap((budget) => {
    const of = `max ${budget.max} per ${budget.durationMs} ms, ${budget.workers} worker process${budget.workers > 1 ? 'es' : ''}`;
    const achieved = Number(budget.achievedPerS.toFixed(2));
    const wanted = Number(((0.95 * budget.max * 1000) / budget.durationMs).toFixed(2));
    return [
      { name: `rate budget achieved (requests/s), ${of}`, wanted: `>= ${wanted}`, value: achieved, met: achieved >= wanted },
      { name: `rate budget, most requests in any ${budget.durationMs} ms, ${of}`, wanted: `<= ${budget.max}`, value: budget.maxInAnyWindow, met: budget.maxInAnyWindow <= budget.max },
    ];
  });
}

/** The report's row: #, measurement, size, result, note. */
export function rateBudgetRow(budget: RateBudget): string[] {
  return [
    '8',
    `rate budget, max ${budget.max}/${budget.durationMs} ms, ${budget.workers} worker process${budget.workers > 1 ? 'es' : ''}`,
    `${budget.windowSeconds} s`,
    `${budget.achievedPerS.toFixed(2)} requests/s, most in any ${budget.durationMs} ms: ${budget.maxInAnyWindow}`,
    `a slot comes round every ${budget.slotCycleMs.toFixed(0)} ms`,
  ];
}
