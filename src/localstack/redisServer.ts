import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Redis } from 'ioredis';
import { freePort } from './freePort.js';
import { LocalStackError } from './LocalStackError.js';
import { isRoot, runCommand, withPrefix } from './processes.js';

const REDIS_BINARY_PATHS = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'];

export interface RedisServer {
  url: string;
  port: number;
  pid: number;
  stop(): Promise<void>;
}

async function findRedisBinary(): Promise<string | undefined> {
  const onPath = await runCommand('sh', ['-c', 'command -v redis-server']).catch(() => undefined);
  const path = onPath?.code === 0 ? onPath.output.trim() : '';
  if (path) return path;
  return REDIS_BINARY_PATHS.find((candidate) => existsSync(candidate));
}

/** Finds redis-server, installing Debian's package when running as root. */
export async function ensureRedisBinary(): Promise<string> {
  const found = await findRedisBinary();
  if (found) return found;
  const advice =
    'Install it with `apt-get install -y redis-server`, set REDIS_URL to a running Redis, ' +
    'or start one with `docker compose up -d redis`.';
  if (!isRoot()) throw new LocalStackError('missing_binary', `redis-server was not found. ${advice}`);
  const install = await runCommand('sh', ['-c', 'apt-get install -y redis-server || (apt-get update && apt-get install -y redis-server)'], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  const installed = await findRedisBinary();
  if (install.code !== 0 || !installed) {
    throw new LocalStackError('missing_binary', `redis-server was not found and apt-get could not install it. ${advice}\n${install.output.slice(-2000)}`);
  }
  return installed;
}

async function waitForPing(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new LocalStackError('start_failed', `redis-server exited with code ${child.exitCode}:\n${log()}`);
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.ping();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new LocalStackError('start_failed', `redis-server did not answer PING within 10 s:\n${log()}`, { cause: error });
    } finally {
      client.disconnect();
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface RedisServerOptions {
  /** The address to listen on (default 127.0.0.1). */
  host?: string;
  /** Default: a free loopback port. */
  port?: number;
  /** A command that runs redis-server, as `ip netns exec NS` runs it in a network namespace. Default: none. */
  commandPrefix?: readonly string[];
  /** Keep data in an append-only file here, so a restarted server on the same dir has it back. Default: memory only. */
  dataDir?: string;
  /** More redis-server arguments, e.g. `--cluster-enabled yes` or TLS settings. Default: none. */
  args?: readonly string[];
}

/** Starts a throwaway redis-server on a loopback port (or `options.host`), memory-only unless given a data dir. */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const binary = await ensureRedisBinary();
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? (await freePort());
  const persistence = options.dataDir ? ['--dir', options.dataDir, '--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
  // noeviction: BullMQ must never lose keys to eviction. Protected mode refuses every client but
  // loopback ones while there is no password: off only where another address was asked for.
  const protectedMode = host === '127.0.0.1' ? 'yes' : 'no';
  const args = ['--port', String(port), '--bind', host, '--save', '', ...persistence, '--maxmemory-policy', 'noeviction', '--protected-mode', protectedMode, ...(options.args ?? [])];
  const child = spawn(...withPrefix(options.commandPrefix ?? [], binary, args), { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const collect = (chunk: Buffer) => {
    if (output.length < 20_000) output += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const url = `redis://${host}:${port}`;
  await waitForPing(url, child, () => output);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url,
    port,
    pid: child.pid ?? 0,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}
