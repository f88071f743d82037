import { spawn, type SpawnOptions } from 'node:child_process';

export interface CommandResult {
  code: number | null;
  output: string;
}

/** Runs a command to completion, collecting stdout and stderr together. */
export function runCommand(command: string, args: string[], options: SpawnOptions = {}): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/**
 * The program and arguments that run `command` under `prefix`, a command that runs the rest of its
 * arguments (`ip netns exec NS`, to run it in a network namespace); unchanged for no prefix.
 */
export function withPrefix(prefix: readonly string[], command: string, args: readonly string[]): [string, string[]] {
  const [first, ...rest] = prefix;
  return first === undefined ? [command, [...args]] : [first, [...rest, command, ...args]];
}

export function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}
