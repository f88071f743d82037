import { existsSync, readdirSync } from 'node:fs';
import { appendFile, chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './freePort.js';
import { LocalStackError } from './LocalStackError.js';
import { isRoot, runCommand, withPrefix } from './processes.js';

export interface PostgresServer {
  url: string;
  port: number;
  dataDir: string;
  /**
   * Stops the server and starts it again on the same port and data: `fast` disconnects clients
   * and shuts down cleanly; `immediate` stops at once, as a crash would, and the start recovers.
   */
  restart(mode?: 'fast' | 'immediate'): Promise<void>;
  stop(): Promise<void>;
}

const DATABASE = 'feedsync';

export interface PostgresServerOptions {
  /** The address to listen on (default 127.0.0.1). */
  host?: string;
  /** Default: a free loopback port. */
  port?: number;
  /** Clients from this network (CIDR, e.g. 10.1.2.0/24) are trusted as loopback ones are; by default only loopback clients are let in. */
  trustedNetwork?: string;
  /** A command that runs the server's programs, as `ip netns exec NS` runs them in a network namespace. Default: none. */
  commandPrefix?: readonly string[];
}

function hasServerBinaries(bindir: string): boolean {
  return existsSync(join(bindir, 'initdb')) && existsSync(join(bindir, 'pg_ctl'));
}

/** Finds initdb/pg_ctl via pg_config, then Debian's /usr/lib/postgresql/<version>/bin, newest first. */
export async function findPostgresBindir(): Promise<string> {
  const fromConfig = await runCommand('pg_config', ['--bindir']).catch(() => undefined);
  const configured = fromConfig?.code === 0 ? fromConfig.output.trim() : '';
  if (configured && hasServerBinaries(configured)) return configured;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => /^\d+$/.test(name))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const version of versions) {
    const bindir = join(root, version, 'bin');
    if (hasServerBinaries(bindir)) return bindir;
  }
  throw new LocalStackError(
    'missing_binary',
    'PostgreSQL server binaries (initdb, pg_ctl) were not found via `pg_config --bindir` or in /usr/lib/postgresql/*/bin. ' +
      'Install them with `apt-get install -y postgresql`, set DATABASE_URL to a running Postgres, or start one with `docker compose up -d postgres`.',
  );
}

/** Postgres refuses to run as root, so as root the cluster belongs to the `postgres` user. */
async function asClusterOwner(bindir: string, program: string, args: string[], prefix: readonly string[] = []) {
  const path = join(bindir, program);
  const result = isRoot() ? await runCommand(...withPrefix(prefix, 'runuser', ['-u', 'postgres', '--', path, ...args])) : await runCommand(...withPrefix(prefix, path, args));
  if (result.code !== 0) throw new LocalStackError('start_failed', `${program} ${args.join(' ')} failed (exit ${result.code}):\n${result.output.slice(-4000)}`);
  return result;
}

/** Starts a throwaway Postgres cluster in a temp dir on a free loopback port (or as `options` say), with a `feedsync` database. */
export async function startPostgresServer(options: PostgresServerOptions = {}): Promise<PostgresServer> {
  const host = options.host ?? '127.0.0.1';
  const prefix = options.commandPrefix ?? [];
  const bindir = await findPostgresBindir();
  const dir = await mkdtemp(join(tmpdir(), 'feedsync-pg-'));
  if (isRoot()) {
    const owner = await runCommand('id', ['-u', 'postgres']);
    const group = await runCommand('id', ['-g', 'postgres']);
    if (owner.code !== 0) throw new LocalStackError('start_failed', 'Running as root, but there is no `postgres` user to own the cluster. Create it with `useradd --system postgres`.');
    await chown(dir, Number(owner.output.trim()), Number(group.output.trim()));
  }
  const dataDir = join(dir, 'data');
  const port = options.port ?? (await freePort());
  await asClusterOwner(bindir, 'initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--locale=C']);
  // initdb's trust lines name loopback only; a throwaway cluster on a private test network trusts that too.
  if (options.trustedNetwork !== undefined) await appendFile(join(dataDir, 'pg_hba.conf'), `host all all ${options.trustedNetwork} trust\n`);
  // A throwaway cluster: durability traded for speed, as tests and the demo never need crash safety of the server itself.
  const serverOptions = [
    `-p ${port}`,
    `-c listen_addresses=${host}`,
    `-k ${dir}`,
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=300',
  ].join(' ');
  const logFile = join(dir, 'postgres.log');
  try {
    await asClusterOwner(bindir, 'pg_ctl', ['-D', dataDir, '-o', serverOptions, '-l', logFile, '-w', '-t', '60', 'start'], prefix);
  } catch (error) {
    const log = await readFile(logFile, 'utf8').catch(() => '');
    throw new LocalStackError('start_failed', `Postgres did not start: ${(error as Error).message}\n${log.slice(-4000)}`, { cause: error });
  }
  const adminUrl = `postgres://postgres@${host}:${port}/postgres`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await admin.end();
  }
  let stopped = false;
  return {
    url: `postgres://postgres@${host}:${port}/${DATABASE}`,
    port,
    dataDir,
    async restart(mode: 'fast' | 'immediate' = 'fast') {
      await asClusterOwner(bindir, 'pg_ctl', ['-D', dataDir, '-m', mode, '-w', 'stop']);
      await asClusterOwner(bindir, 'pg_ctl', ['-D', dataDir, '-o', serverOptions, '-l', logFile, '-w', '-t', '60', 'start'], prefix);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await asClusterOwner(bindir, 'pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
