import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/testDatabase.js';
import { commandOutcomeRows, type CommandOutcomeRow } from './commandOutcomeRows.js';

/** Runs the CLI as the row says: its exit code, and what it printed (stdout, then stderr). */
async function outcomeOf(row: CommandOutcomeRow): Promise<{ code: number | null; printed: string }> {
  const database = row.closedStdout ? await createTestDatabase() : undefined;
  try {
    const child = spawn('node', ['--import', 'tsx', 'src/cli/main.ts', ...row.args], { env: { ...process.env, ...(database ? { DATABASE_URL: database.url } : {}) }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    // The read end closed before the first line: every write meets a broken pipe.
    if (row.closedStdout) child.stdout.destroy();
    else child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(child, 'close')) as [number | null];
    return { code, printed: stdout + stderr };
  } finally {
    await database?.drop();
  }
}

describe('command lines that must end well', () => {
  it.each(commandOutcomeRows)('feedsync $what: exits $code', async (row) => {
    const { code, printed } = await outcomeOf(row);
    expect(code, printed).toBe(row.code);
    expect(printed).toMatch(row.printed);
    expect(printed).not.toMatch(row.never);
  });
});
