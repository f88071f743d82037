import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const feedsync = (...args: string[]) => run('node', ['--import', 'tsx', 'src/cli/main.ts', ...args], { timeout: 30_000 });

describe('feedsync CLI', () => {
  it('lists its commands in --help', async () => {
    const { stdout } = await feedsync('--help');
    for (const command of ['run', 'config', 'migrate', 'simulate', 'demo']) expect(stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
  });

  it('rejects a bad --query with a message naming the flag', async () => {
    await expect(feedsync('run', 'x', '--query', 'two')).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/--query must be an integer from 0 to 2147483647, got "two"/) as string });
  });

  it('exits non-zero on an unknown command', async () => {
    await expect(feedsync('frobnicate')).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/unknown command 'frobnicate'/) as string });
  });
});
