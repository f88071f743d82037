import { readFileSync } from 'node:fs';
import { CommanderError, type Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { feedsyncProgram } from '../../src/cli/program.js';

/** The words that reach every command of the tree, the program's own (none) first. */
function commandPaths(command: Command, path: string[] = []): string[][] {
  return [path, ...command.commands.flatMap((sub) => commandPaths(sub, [...path, sub.name()]))];
}

/** Runs `feedsync <args>` on a fresh command tree, as main does; what it wrote and the exit code commander gave. */
async function parsed(args: string[]): Promise<{ exitCode: number; out: string }> {
  let out = '';
  const program = feedsyncProgram();
  const capture = (command: Command) => {
    command.configureOutput({ writeOut: (text) => (out += text), writeErr: (text) => (out += text) });
    command.commands.forEach(capture);
  };
  capture(program);
  try {
    await program.parseAsync(['node', 'feedsync', ...args]);
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    return { exitCode: error.exitCode, out };
  }
  throw new Error(`feedsync ${args.join(' ')} ran instead of printing its help`);
}

const paths = commandPaths(feedsyncProgram());

describe('help of every command', () => {
  it('walks more than the top-level commands', () => {
    expect(paths.filter((path) => path.length === 2).length).toBeGreaterThan(3);
  });

  it.each(paths.map((path) => [path.join(' ') || '(program)', path] as const))('feedsync %s --help prints its usage and exits 0', async (_name, path) => {
    const { exitCode, out } = await parsed([...path, '--help']);
    expect(exitCode, out).toBe(0);
    expect(out).toMatch(new RegExp(`^Usage: feedsync${path.map((word) => ` ${word}`).join('')}\\b`));
  });

  // A subcommand's help is asked of its parent: `feedsync schema help infer`.
  const helpArgs = (path: string[]) => [...path.slice(0, -1), 'help', path.at(-1)!];
  it.each(paths.filter((path) => path.length > 0).map((path) => [helpArgs(path).join(' '), path] as const))('feedsync %s prints its usage and exits 0', async (_name, path) => {
    const { exitCode, out } = await parsed(helpArgs(path));
    expect(exitCode, out).toBe(0);
    expect(out).toMatch(new RegExp(`^Usage: feedsync${path.map((word) => ` ${word}`).join('')}\\b`));
  });
});

describe('feedsync --version', () => {
  it("prints package.json's version and exits 0", async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) expect(await parsed([flag])).toEqual({ exitCode: 0, out: `${version}\n` });
  });
});

