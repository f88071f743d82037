import { FAST_PATHS, type FastPath } from '../../src/config/fastPaths.js';
import { putFaults } from '../support/simulatorAdmin.js';
import { benchConfigTree, expectedRecords, TX_RUN_CONCURRENCY, type TxListJob } from './benchConfig.js';
import { measureRuns, type MeasuredRuns } from './measureRuns.js';
import { alternately } from './alternately.js';
import type { Target } from './report.js';
import { emptyFeedsyncTables } from './settleDatabase.js';
import type { SimulatorUrls } from './simulatorProcess.js';

/** What a fast path buys: each figure with it over the same figure without it, in runs alternated back to back. */
export interface FastPathGain {
  /** A fast path of FAST_PATHS, or `guessNextPage` (paging.guessNextPage). */
  path: FastPath | 'guessNextPage';
  /** First sync records/s with over without, per alternation; and their median. */
  firstSync: { ratios: number[]; median: number };
  /** Unchanged re-sync records/s with over without. */
  resync: { ratios: number[]; median: number };
}

export interface FastPathsToMeasure {
  sim: SimulatorUrls;
  servers: { webhookBaseUrl: string; simulatorPid: number; redisUrl: string; databaseUrl: string; nodeArgs: string[] };
  /** A first sync of this job, then the same again unchanged, with and without each path. */
  job: TxListJob;
  /** Alternations of (with, without), each order flipped the next time. */
  alternations: number;
  say: (line: string) => void;
}

/** The paths whose gain is a speed: measured on a first sync and an unchanged re-sync. */
const SPEED_PATHS: FastPathGain['path'][] = ['provenPages', 'statementByLastPage', 'guessNextPage'];

/**
 * Each fast path's gain against its removal in the same bench: a first sync and an unchanged
 * re-sync of `job` in a fresh worker with the path, and the same without it (FEEDSYNC_FAST_PATHS_OFF,
 * or paging.guessNextPage: false), alternated so that the machine's drift falls on both sides.
 */
export async function measureFastPaths(options: FastPathsToMeasure): Promise<FastPathGain[]> {
  const gains: FastPathGain[] = [];
  for (const path of SPEED_PATHS) {
    const { on, off } = await alternately(options.alternations, (side, alternation) => {
      options.say(`   ${path} ${side ? 'on' : 'off'} (${alternation + 1} of ${options.alternations})…`);
      return syncTwice(options, path, side);
    });
    const first = on.map(([withFirst], index) => withFirst.recordsPerS / off[index]![0].recordsPerS);
    const resync = on.map(([, withResync], index) => withResync.recordsPerS / off[index]![1].recordsPerS);
    gains.push({ path, firstSync: { ratios: first, median: middle(first) }, resync: { ratios: resync, median: middle(resync) } });
  }
  return gains;
}

/** The median ratio, the lower of the middle two of an even count, as the bench's medians. */
const middle = (ratios: readonly number[]): number => [...ratios].sort((a, b) => a - b)[Math.floor((ratios.length - 1) / 2)]!;

/**
 * Guessed requests overlap the upstream's time with feedsync's own: they are measured against an
 * upstream that takes this long to answer, as a real one does, where the simulator answers at once.
 */
const GUESS_LATENCY_MS = 20;

/** Sets the simulator's explorer to answer after `latencyMs` (0: at once), its other faults off. */
function setExplorerLatency(sim: SimulatorUrls, latencyMs: number): Promise<void> {
  return putFaults(sim.adminUrl, 'explorer', { latencyMs });
}

/** A first sync into emptied tables, then the same unchanged, in one fresh worker with or without `path`. */
async function syncTwice(options: FastPathsToMeasure, path: FastPathGain['path'], on: boolean): Promise<[MeasuredRuns, MeasuredRuns]> {
  if (path === 'guessNextPage') await setExplorerLatency(options.sim, GUESS_LATENCY_MS);
  try {
    return await syncTwiceAsSet(options, path, on);
  } finally {
    if (path === 'guessNextPage') await setExplorerLatency(options.sim, 0);
  }
}

async function syncTwiceAsSet(options: FastPathsToMeasure, path: FastPathGain['path'], on: boolean): Promise<[MeasuredRuns, MeasuredRuns]> {
  const { job } = options;
  await emptyFeedsyncTables(options.servers.databaseUrl);
  const { tree, webhookUuid } = benchConfigTree({ sim: options.sim, txJobs: [job], concurrency: TX_RUN_CONCURRENCY });
  if (path === 'guessNextPage' && !on) for (const each of tree.jobs as { paging: Record<string, unknown> }[]) each.paging = { ...each.paging, guessNextPage: false };
  const env = path !== 'guessNextPage' && !on ? { FEEDSYNC_FAST_PATHS_OFF: path } : {};
  const measure = async (expectedNew: number) =>
    (await measureRuns({ configTree: tree, webhookUuid, ...options.servers, env, trials: [[job.name]], expectedRecords: expectedRecords(job), expectedNew, timeoutMs: 600_000, pollMs: 100 }))[0]!;
  return [await measure(expectedRecords(job)), await measure(0)];
}

/** A line per path for the bench's output and docs/benchmarks.md. */
export function fastPathLines(gains: readonly FastPathGain[]): string[] {
  const ratio = (value: number) => `×${value.toFixed(2)}`;
  return gains.map(
    ({ path, firstSync, resync }) =>
      `${path} (${path === 'guessNextPage' ? 'paging.guessNextPage' : FAST_PATHS[path]}): first sync ${ratio(firstSync.median)} (${firstSync.ratios.map(ratio).join(' / ')}), re-sync ${ratio(resync.median)} (${resync.ratios.map(ratio).join(' / ')})`,
  );
}

/** Each fast path must buy at least this much on one of its figures to keep its place (docs/benchmarks.md). */
export const FAST_PATH_WANTED = 1.1;

/** The bench's targets: each fast path's best gain at least FAST_PATH_WANTED. */
export function fastPathTargets(gains: readonly FastPathGain[]): Target[] {
  const target = (name: string, value: number): Target => ({ name, wanted: `>= ${FAST_PATH_WANTED}`, value: Number(value.toFixed(3)), met: value >= FAST_PATH_WANTED });
  return gains.map((gain) => target(`fast path ${gain.path}: best of first sync / re-sync, with over without`, Math.max(gain.firstSync.median, gain.resync.median)));
}
