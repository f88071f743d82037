import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ConfigInput } from '../../src/config/schema.js';
import { scratchDir } from './scratchDir.js';

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

export function startFeedsync(args: string[], env: Record<string, string>): FeedsyncProcess {
  const child = spawn('node', ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    env: { ...process.env, LOG_LEVEL: 'debug', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { child, pid: child.pid ?? 0, output: () => output, exited, kill: (signal) => child.kill(signal) };
}

