import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { firstJsonLine, REPO_ROOT, stopChild } from './simulatorProcess.js';

const BENCH_WORKER = fileURLToPath(new URL('./benchWorker.ts', import.meta.url));

export interface WorkerMemory {
  /** RSS once the worker took work, before any job. */
  idleRssMB: number;
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
}

/** Reads a `Vm*` line of /proc/<pid>/status, in MB. */
export function procStatusMB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  if (!match) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]) / 1024;
}

/** Starts a fresh feedsync worker process (test/bench/benchWorker.ts) and waits until it takes work. */
export async function startWorkerChild(options: WorkerChildOptions): Promise<WorkerChild> {
  // A file, not the environment: a config of thousands of queries exceeds one variable's limit.
  const dir = await mkdtemp(join(tmpdir(), 'feedsync-bench-'));
  const configFile = join(dir, 'config.json');
  await writeFile(configFile, JSON.stringify(options.configTree));
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', BENCH_WORKER], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      BENCH_CONFIG_FILE: configFile,
      BENCH_REDIS_URL: options.redisUrl,
      BENCH_DATABASE_URL: options.databaseUrl,
    },
  });
  try {
    await firstJsonLine<{ ready: true }>(child, 'the bench worker');
  } catch (error) {
    await stopChild(child);
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const pid = child.pid!;
  const idleRssMB = procStatusMB(pid, 'VmRSS');
  const memory = (): WorkerMemory => ({ idleRssMB, peakRssMB: procStatusMB(pid, 'VmHWM') });
  return {
    pid,
    memory,
    async stop() {
      await stopChild(child, 60_000);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
