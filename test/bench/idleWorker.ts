import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { freePort } from '../../src/localstack/freePort.js';
import { BUILT_CLI, ensureBuilt } from '../deploy/builtCli.js';
import { REPO_ROOT, stopChild, type SimulatorUrls } from './simulatorProcess.js';
import { untilReady } from '../support/untilReady.js';
import { procStatusMB, READY_TIMEOUT_MS, shippedEnv } from './workerChild.js';

export interface IdleWorker {
  /** VmRSS of the worker once it idled after start, before any run, in MB. */
  beforeRunsRssMB: number;
  /** VmRSS of the worker once it idled after {@link BETWEEN_RUNS_JOB}'s runs, in MB. */
  betweenRunsRssMB: number;
  idleSeconds: number;
}

/** The example config's job run before the second reading: 20,000 transactions at limit 1000, as the simulator serves them. */
const BETWEEN_RUNS_JOB = 'transactions';
const run = promisify(execFile);

export interface IdleWorkerOptions {
  sim: SimulatorUrls;
  redisUrl: string;
  databaseUrl: string;
  /**
   * How long the worker idles before each reading: long enough for V8's memory reducer, which
   * collects and gives back the young generation once allocation has been low for some seconds
   * (seen 9–21 s here); before it, RSS is the start's or the run's transient.
   */
  idleMs: number;
}

/**
 * The RSS of `feedsync worker` as it ships: the built CLI (dist/, built first if a source is newer)
 * on the example config, under a Redis prefix of its own so it never takes the other phases' jobs.
 * Read twice: idle after start, and idle after one job's runs.
 */
export async function measureIdleWorker(options: IdleWorkerOptions): Promise<IdleWorker> {
  await ensureBuilt();
  const port = await freePort();
  const { sim } = options;
  const env = {
    ...shippedEnv(),
    REDIS_URL: options.redisUrl,
    DATABASE_URL: options.databaseUrl,
    MUSIC_BASE_URL: sim.musicBaseUrl,
    MUSIC_API_KEY: sim.apiKey,
    EXPLORER_BASE_URL: sim.explorerBaseUrl,
    EXPLORER_API_KEY: sim.apiKey,
    WEBHOOK_BASE_URL: sim.webhookBaseUrl,
    WEBHOOK_UUID: sim.webhookUuid,
    FEEDSYNC_PREFIX: `bench-idle-${randomUUID()}`,
    FEEDSYNC_HTTP_PORT: String(port),
    LOG_LEVEL: 'warn',
  };
  const config = ['--config', join(REPO_ROOT, 'feedsync.yaml')];
  const child = spawn(process.execPath, [BUILT_CLI, 'worker', ...config], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'], env });
  try {
    await untilReady(child, `http://127.0.0.1:${port}/readyz`, READY_TIMEOUT_MS);
    await sleep(options.idleMs);
    const beforeRunsRssMB = procStatusMB(child.pid!, 'VmRSS');
    await run(process.execPath, [BUILT_CLI, 'enqueue', BETWEEN_RUNS_JOB, '--wait', '--timeout', '120', ...config], { cwd: REPO_ROOT, env, timeout: 150_000 });
    await sleep(options.idleMs);
    return { beforeRunsRssMB, betweenRunsRssMB: procStatusMB(child.pid!, 'VmRSS'), idleSeconds: options.idleMs / 1000 };
  } finally {
    await stopChild(child);
  }
}

/** The report's row: #, measurement, size, result, note. */
export function idleWorkerRow(idle: IdleWorker): string[] {
  return ['7', 'idle `feedsync worker` (built CLI, example config)', `${idle.idleSeconds} s idle`, `RSS ${idle.beforeRunsRssMB.toFixed(0)} MB before any run`, `${idle.betweenRunsRssMB.toFixed(0)} MB after a run of 20,010 records`];
}
