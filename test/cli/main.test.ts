import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/testDatabase.js';

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

  it('ends quietly, with its own exit code, when the reader of its output has gone (`feedsync migrate | head -1`)', async () => {
    const database = await createTestDatabase();
    try {
      const child = spawn('node', ['--import', 'tsx', 'src/cli/main.ts', 'migrate', '--config', 'feedsync.yaml'], { env: { ...process.env, DATABASE_URL: database.url }, stdio: ['ignore', 'pipe', 'pipe'] });
      // The read end closed before the first line: every write meets a broken pipe.
      child.stdout.destroy();
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const [code] = (await once(child, 'close')) as [number | null];
      expect(stderr).not.toMatch(/EPIPE/);
      expect(code, stderr).toBe(0);
    } finally {
      await database.drop();
    }
  });
});
