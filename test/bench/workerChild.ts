import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../src/localstack/freePort.js';
import { withPrefix } from '../../src/localstack/processes.js';
import { BUILT_CLI, ensureBuilt } from '../deploy/builtCli.js';
import { imageEnv } from '../deploy/dockerfile.js';
import { untilReady } from '../support/untilReady.js';
import { REPO_ROOT, stopChild } from './simulatorProcess.js';

export interface WorkerMemory {
  /** RSS once its /readyz first answered 200, before any job. */
  startRssMB: number;
  /** Peak RSS of the process's whole life (VmHWM). */
  peakRssMB: number;
}

export interface WorkerChild {
  pid: number;
  /** Its memory figures so far. */
  memory(): WorkerMemory;
  /** Stops the worker (SIGTERM, drain). */
  stop(): Promise<void>;
}

export interface WorkerChildOptions {
  configTree: unknown;
  redisUrl: string;
  databaseUrl: string;
  /** Extra node flags, e.g. --cpu-prof. */
  nodeArgs?: string[];
  /** Extra environment, e.g. FEEDSYNC_FAST_PATHS_OFF. */
  env?: NodeJS.ProcessEnv;
  /** Runs it on another host, e.g. a network namespace's (`ip netns exec NS`). Default: this one. */
  commandPrefix?: readonly string[];
  /** Where its health endpoint listens, and is polled from here (default 127.0.0.1). */
  httpHost?: string;
}

/** Reads a `Vm*` line of /proc/<pid>/status, in MB. */
export function procStatusMB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  if (!match) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]) / 1024;
}

/**
 * The environment a bench worker runs in: the image's (as its Dockerfile sets it: runtime tuning
 * such as MALLOC_ARENA_MAX counts in what the bench measures), listening on loopback only.
 */
export function shippedEnv(): NodeJS.ProcessEnv {
  return { ...process.env, ...imageEnv(), FEEDSYNC_HTTP_HOST: '127.0.0.1' };
}

/** How long a bench worker has to answer /readyz once started. */
export const READY_TIMEOUT_MS = 30_000;

/**
 * Starts `feedsync worker` as it ships (the built CLI, dist/ rebuilt first if a source is newer) on `configTree` and a port of its own, and waits until its
 * /readyz answers 200.
 */
export async function startWorkerChild(options: WorkerChildOptions): Promise<WorkerChild> {
  await ensureBuilt();
  const httpHost = options.httpHost ?? '127.0.0.1';
  const port = await freePort();
  const tree = options.configTree as { worker?: Record<string, unknown> };
  // A file, not the environment: a config of thousands of queries exceeds one variable's limit. JSON is YAML.
  const dir = await mkdtemp(join(tmpdir(), 'feedsync-bench-'));
  const configFile = join(dir, 'config.json');
  await writeFile(configFile, JSON.stringify({ ...tree, worker: { ...tree.worker, httpHost, httpPort: port } }));
  const child = spawn(...withPrefix(options.commandPrefix ?? [], process.execPath, [...(options.nodeArgs ?? []), BUILT_CLI, 'worker', '--config', configFile]), {
    cwd: REPO_ROOT,
    // Its logs (stdout) go to the bench's stderr, apart from the report.
    stdio: ['ignore', process.stderr, 'inherit'],
    env: { ...shippedEnv(), REDIS_URL: options.redisUrl, DATABASE_URL: options.databaseUrl, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn', ...options.env },
  });
  try {
    await untilReady(child, `http://${httpHost}:${port}/readyz`, READY_TIMEOUT_MS);
  } catch (error) {
    await stopChild(child);
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const pid = child.pid!;
  const startRssMB = procStatusMB(pid, 'VmRSS');
  const memory = (): WorkerMemory => ({ startRssMB, peakRssMB: procStatusMB(pid, 'VmHWM') });
  return {
    pid,
    memory,
    async stop() {
      await stopChild(child, 60_000);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
