import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ConfigInput } from '../../src/config/schema.js';
import { withPrefix } from '../../src/localstack/processes.js';
import { expect } from 'vitest';
import { scratchDir } from './scratchDir.js';
import { waitFor } from './waitFor.js';

// Apart, so that code outside vitest (the bench) can poll too.
export { waitFor } from './waitFor.js';

/** A `feedsync` CLI process started by a test, with its output kept. */
export interface FeedsyncProcess {
  child: ChildProcess;
  pid: number;
  output(): string;
  /** Resolves with the exit code (or signal) once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal: NodeJS.Signals): void;
}

/** Writes a config as a file the CLI can read (JSON is YAML). */
export async function writeConfig(config: ConfigInput): Promise<string> {
  const dir = await scratchDir('config');
  const file = join(dir, 'feedsync.yaml');
  await writeFile(file, JSON.stringify(config, null, 2));
  return file;
}

/** `feedsync <args>` from the sources; `commandPrefix` runs it elsewhere, e.g. on a network namespace's host (`ip netns exec NS`). */
export function startFeedsync(args: string[], env: Record<string, string>, commandPrefix: readonly string[] = []): FeedsyncProcess {
  const child = spawn(...withPrefix(commandPrefix, 'node', ['--import', 'tsx', 'src/cli/main.ts', ...args]), {
    env: { ...process.env, LOG_LEVEL: 'debug', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { child, pid: child.pid ?? 0, output: () => output, exited, kill: (signal) => child.kill(signal) };
}


/**
 * Starts a long-running `feedsync` command (worker, scheduler) and waits until it says it has
 * started; fails with its output if it does not within 30 s.
 */
export async function startedFeedsync(args: string[], env: Record<string, string>, commandPrefix: readonly string[] = []): Promise<FeedsyncProcess> {
  const process = startFeedsync(args, env, commandPrefix);
  const started = () => process.output().includes('feedsync started') || process.output().includes('scheduler started');
  await waitFor(`${args[0]} to start`, started, 30_000).catch((error: Error) => {
    process.kill('SIGKILL');
    throw new Error(`${error.message}\n${process.output()}`);
  });
  return process;
}

/** `feedsync enqueue <job>`: the id of the run it queued (the last line it prints). */
export async function enqueueByCli(job: string, configFile: string, env: Record<string, string>): Promise<string> {
  const process = startFeedsync(['enqueue', job, '--config', configFile], env);
  const { code } = await process.exited;
  expect(code, process.output()).toBe(0);
  return process.output().trim().split('\n').at(-1)!;
}
