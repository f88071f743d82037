import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { cp, mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { freePort } from '../../src/localstack/freePort.js';
import { migrationStatus } from '../../src/storage/database/migrationStatus.js';
import { untilReady } from '../support/untilReady.js';
import { scratchDir } from '../support/scratchDir.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';
import { ensureBuilt } from './builtCli.js';
import { imageEntrypoint, imageEnv } from './dockerfile.js';
import { UPSTREAM_STAND_INS } from './upstreamStandIns.js';

const run = promisify(execFile);

/**
 * The package as the Dockerfile's production stage lays it out, step for step: production
 * dependencies installed from the lock file, then the built dist/, migrations/ and the example
 * config. Keep the two in step.
 */
async function installProductionPackage(): Promise<string> {
  const dir = await scratchDir('production-package');
  await Promise.all(['package.json', 'package-lock.json'].map((file) => cp(file, join(dir, file))));
  // From the tarballs the README's `npm install` just cached, without the registry (a stalled one
  // once held this hook for minutes); from the registry only for what the cache lacks.
  const install = ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'];
  const installed = installWithin(dir, [...install, '--offline'], 120_000).catch(() => installWithin(dir, [...install, '--prefer-offline'], 110_000));
  await Promise.all([installed, ensureBuilt()]);
  for (const path of ['dist', 'migrations', 'feedsync.yaml', 'examples']) await cp(path, join(dir, path), { recursive: true });
  return dir;
}

/**
 * Runs npm in `dir`, in a process group of its own that is killed whole if it has not finished
 * within `timeoutMs`: a stalled registry fails the test with a clear message rather than hang it.
 */
function installWithin(dir: string, args: string[], timeoutMs: number): Promise<void> {
  const child = spawn('npm', args, { cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), timeoutMs);
  return new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`npm ${args.join(' ')} ${signal ? `was killed after ${timeoutMs} ms` : `exited with ${code}`}:\n${output}`));
    });
  });
}

/** A database of its own on which none of the bundled migrations is applied yet. */
async function createUnmigratedDatabase(): Promise<TestDatabase> {
  const noMigrations = await scratchDir('no-migrations');
  await mkdir(join(noMigrations, 'meta'));
  await writeFile(join(noMigrations, 'meta', '_journal.json'), JSON.stringify({ entries: [] }));
  return createTestDatabase(noMigrations);
}

let dir: string;
/** The environment of a container of the image: its ENV lines and what the config needs. */
let containerEnv: Record<string, string>;
const feedsync = (args: string[], env: Record<string, string> = {}) => run('node', ['dist/cli/main.js', ...args], { cwd: dir, env: { ...containerEnv, ...env }, timeout: 30_000 });

beforeAll(async () => {
  dir = await installProductionPackage();
  containerEnv = { PATH: process.env.PATH ?? '', ...imageEnv(), ...UPSTREAM_STAND_INS, REDIS_URL: inject('redisUrl') };
}, 240_000);

describe('the production package (dependencies without devDependencies)', () => {
  it('holds no dev dependency, so what follows runs without them', () => {
    expect(() => createRequire(join(dir, 'package.json')).resolve('standardwebhooks')).toThrow(/Cannot find module/);
  });

  it('lists every command in --help, the development ones included', async () => {
    const { stdout } = await feedsync(['--help']);
    for (const command of ['worker', 'scheduler', 'start', 'migrate', 'demo', 'simulate']) expect(stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    expect((await feedsync(['demo', '--help'])).stdout).toContain('--config <file>');
  });

  it('refuses `feedsync demo` in one line that says it needs the dev dependencies', async () => {
    const failure = (await feedsync(['demo']).then(
      () => undefined,
      (error: unknown) => error,
    )) as { code: number; stderr: string } | undefined;
    expect(failure?.code).toBe(1);
    expect(failure?.stderr.trim().split('\n')).toEqual([expect.stringMatching(/development command.*dev dependencies.*npm install/) as string]);
  });

  describe('against the test run\'s Redis and Postgres', () => {
    const databases: TestDatabase[] = [];
    afterAll(() => Promise.all(databases.map((database) => database.drop())));

    it('applies every bundled migration with `feedsync migrate`', async () => {
      const database = await createUnmigratedDatabase();
      databases.push(database);
      expect((await migrationStatus(database.pool)).applied).toBe(0);
      await feedsync(['migrate'], { DATABASE_URL: database.url });
      const status = await migrationStatus(database.pool);
      expect(status.applied).toBe(status.expected);
    });

    it('runs `feedsync worker` as the image starts it until it is ready, then exits cleanly on SIGTERM', async () => {
      const database = await createTestDatabase();
      databases.push(database);
      const port = await freePort();
      // Loopback rather than the image's 0.0.0.0: this machine is no container.
      const env = { ...containerEnv, DATABASE_URL: database.url, FEEDSYNC_PREFIX: `package-${port}`, FEEDSYNC_HTTP_HOST: '127.0.0.1', FEEDSYNC_HTTP_PORT: String(port) };
      const [command, ...args] = imageEntrypoint();
      const worker = spawn(command!, [...args, 'worker'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      for (const stream of [worker.stdout, worker.stderr]) stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = once(worker, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
      try {
        await untilReady(worker, `http://127.0.0.1:${port}/readyz`).catch((error: Error) => {
          throw new Error(`${error.message}; the worker printed:\n${output}`);
        });
        worker.kill('SIGTERM');
        expect(await exited, output).toEqual([0, null]);
      } finally {
        worker.kill('SIGKILL');
      }
    });
  });
});
