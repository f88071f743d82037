import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../src/localstack/freePort.js';
import { BUILT_CLI, ensureBuilt } from '../deploy/builtCli.js';
import { waitFor } from '../support/waitFor.js';
import type { Target } from './report.js';
import { REPO_ROOT, stopChild, type SimulatorUrls } from './simulatorProcess.js';
import { procStatusMB } from './workerChild.js';

export interface IdleWorker {
  /** VmRSS of the worker after it idled, in MB. */
  rssMB: number;
  idleSeconds: number;
}

export interface IdleWorkerOptions {
  sim: SimulatorUrls;
  redisUrl: string;
  databaseUrl: string;
  /** How long the worker idles once ready before its RSS is read. */
  idleMs: number;
}

const READY_TIMEOUT_MS = 30_000;

/**
 * The RSS of `feedsync worker` as it ships: the built CLI (dist/, built first if a source is newer)
 * on the example config, ready and idle, under a Redis prefix of its own so it never takes the
 * other phases' jobs.
 */
export async function measureIdleWorker(options: IdleWorkerOptions): Promise<IdleWorker> {
  await ensureBuilt();
  const port = await freePort();
  const { sim } = options;
  const child = spawn(process.execPath, [BUILT_CLI, 'worker', '--config', join(REPO_ROOT, 'feedsync.yaml')], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
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
    },
  });
  try {
    await untilReady(child, `http://127.0.0.1:${port}/readyz`);
    await sleep(options.idleMs);
    return { rssMB: procStatusMB(child.pid!, 'VmRSS'), idleSeconds: options.idleMs / 1000 };
  } finally {
    await stopChild(child);
  }
}

/** Polls the worker's /readyz until it answers 200; fails if the worker exits or takes too long. */
function untilReady(child: ChildProcess, readyUrl: string): Promise<true> {
  return waitFor(`the idle worker's ${readyUrl} to answer 200`, async () => {
    if (child.exitCode !== null) throw new Error(`the idle worker exited (code ${child.exitCode}) before it was ready`);
    return fetch(readyUrl).then((response) => response.status === 200, () => false);
  }, READY_TIMEOUT_MS);
}

/** Wanted at most, in MB: what a worker holds between runs is the floor of every deployment. */
const WANTED_MB = 100;

export function idleWorkerTarget(idle: IdleWorker): Target {
  const value = Number(idle.rssMB.toFixed(1));
  return { name: 'idle worker RSS (MB)', wanted: `<= ${WANTED_MB}`, value, met: value <= WANTED_MB };
}

/** The report's row: #, measurement, size, result, note. */
export function idleWorkerRow(idle: IdleWorker): string[] {
  return ['7', 'idle `feedsync worker` (built CLI, example config)', `${idle.idleSeconds} s after ready`, `RSS ${idle.rssMB.toFixed(0)} MB`, ''];
}
