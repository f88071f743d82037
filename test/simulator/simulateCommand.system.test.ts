import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerSimulateCommand } from '../../src/cli/commands/simulate.js';
import { readyExports } from '../../src/simulator/readyMessage.js';
import { startSimulator } from '../../src/simulator/startSimulator.js';

// The CLI wiring (src/cli/commands/index.ts) is not this module's; the bench runner registers the same command.
const RUN_SIMULATOR = fileURLToPath(new URL('../bench/runSimulator.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Runs `simulate <args>` in-process; only for arguments that fail before the simulator starts serving. */
async function runFailing(args: string[]): Promise<{ error: unknown; stderr: string }> {
  let stderr = '';
  const program = new Command('feedsync').exitOverride().configureOutput({ writeErr: (text) => (stderr += text), writeOut: () => undefined });
  registerSimulateCommand(program);
  const error = await program.parseAsync(['simulate', ...args], { from: 'user' }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  return { error, stderr };
}

/** Spawns `simulate --json <args>` through the bench's runner; its first stdout line, parsed, once it is ready. */
async function startSimulateCommand(args: string[]): Promise<{ child: ChildProcess; ready: Record<string, string> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', RUN_SIMULATOR, '--block-interval-ms', '0', ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    return { child, ready: JSON.parse(((await lines.next()) as IteratorYieldResult<string>).value) as Record<string, string> };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}

describe('feedsync simulate', () => {
  it('prints one JSON line with working URLs when ready, and exits cleanly on SIGTERM', async () => {
    const { child, ready } = await startSimulateCommand(['--seed', '42']);
    try {
      expect(Object.keys(ready)).toEqual(['musicBaseUrl', 'explorerBaseUrl', 'webhookBaseUrl', 'apiKey', 'webhookUuid', 'adminUrl', 'hotAddress']);
      const response = await fetch(`${ready.explorerBaseUrl}/api?module=account&action=txlist&q=${ready.hotAddress}&limit=1`, {
        headers: { authorization: `Bearer ${ready.apiKey}` },
      });
      expect(response.status).toBe(200);
      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('serves the dialect --dialect names', async () => {
    const { child, ready } = await startSimulateCommand(['--dialect', 'etherscan']);
    try {
      const response = await fetch(`${ready.explorerBaseUrl}/v2/api?chainid=1&module=account&action=txlist&address=${ready.hotAddress}&offset=1&apikey=${ready.apiKey}`);
      expect(await response.json()).toMatchObject({ status: '1', message: 'OK' });
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('listens on the address --host names, alone, and prints its URLs with it', async () => {
    // Any 127.x.y.z is this machine's loopback, and not the default 127.0.0.1.
    const { child, ready } = await startSimulateCommand(['--host', '127.0.0.2']);
    try {
      for (const name of ['musicBaseUrl', 'explorerBaseUrl', 'webhookBaseUrl', 'adminUrl']) expect(ready[name]).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/);
      expect((await fetch(`${ready.adminUrl}/stats`)).status).toBe(200);
      const port = new URL(ready.adminUrl!).port;
      await expect(fetch(`http://127.0.0.1:${port}/stats`)).rejects.toThrow();
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('rejects a --host that is not an IP address, naming the flag', async () => {
    const { error, stderr } = await runFailing(['--host', 'localhost']);
    expect(error).toBeInstanceOf(CommanderError);
    expect(stderr).toContain('--host');
  });

  it('rejects an unknown --dialect, naming the flag and the dialects', async () => {
    const { error, stderr } = await runFailing(['--dialect', 'soap']);
    expect(error).toBeInstanceOf(CommanderError);
    expect(stderr).toContain('--dialect');
    expect(stderr).toContain('envelope, lastfm, etherscan');
  });

  it('rejects a flag value that does not parse, naming the flag', async () => {
    const { error, stderr } = await runFailing(['--port', 'eighty']);
    expect(error).toBeInstanceOf(CommanderError);
    expect(stderr).toContain('--port');
  });

  it('rejects a fault share above 1, naming the flag', async () => {
    const { error, stderr } = await runFailing(['--fault-hang', '1.5']);
    expect(error).toBeInstanceOf(CommanderError);
    expect(stderr).toContain('--fault-hang');
  });

  it('rejects fault shares adding up to more than 1, naming the fault flags', async () => {
    const { error } = await runFailing(['--fault-hang', '0.6', '--fault-reset', '0.6']);
    expect(String(error)).toContain('--fault-*');
  });

  it('rejects flags the chain cannot use together, naming the flag', async () => {
    const { error } = await runFailing(['--txs-per-block', '30', '--active-addresses', '20']);
    expect(String(error)).toContain('--txs-per-block');
  });

  it('offers every URL, key and the webhook UUID as export lines', async () => {
    const simulator = await startSimulator();
    try {
      const exports = Object.fromEntries(readyExports(simulator).map((line) => line.replace(/^export /, '').split('=') as [string, string]));
      expect(exports).toMatchObject({
        MUSIC_BASE_URL: simulator.musicBaseUrl,
        MUSIC_API_KEY: simulator.apiKey,
        EXPLORER_BASE_URL: simulator.explorerBaseUrl,
        EXPLORER_API_KEY: simulator.apiKey,
        WEBHOOK_BASE_URL: simulator.webhookBaseUrl,
        WEBHOOK_UUID: simulator.webhookUuid,
        SIMULATOR_ADMIN_URL: simulator.adminUrl,
      });
    } finally {
      await simulator.close();
    }
  });
});
