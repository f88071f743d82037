import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from '../../../src/localstack/freePort.js';
import { ensureRedisBinary, startRedisServer, type RedisServer } from '../../../src/localstack/redisServer.js';
import { scratchDir } from '../scratchDir.js';
import { waitFor } from '../waitFor.js';

/** A master and one Sentinel watching it, on loopback ports. */
export interface RedisSentinel {
  master: RedisServer;
  /** The Sentinel's URL, as REDIS_SENTINELS takes it. */
  sentinelUrl: string;
  /** The master group's name. */
  name: string;
  stop(): Promise<void>;
}

/** Starts a master and a Sentinel (`redis-server <conf> --sentinel`); resolves once the Sentinel names the master. */
export async function startRedisSentinel(name = 'feedsync-master'): Promise<RedisSentinel> {
  const master = await startRedisServer();
  const dir = await scratchDir('redis-sentinel');
  const port = await freePort();
  const file = join(dir, 'sentinel.conf');
  // A Sentinel rewrites its config file as it learns, so it must be a file of its own.
  await writeFile(file, [`port ${port}`, 'bind 127.0.0.1', `dir ${dir}`, `sentinel monitor ${name} 127.0.0.1 ${master.port} 1`, ''].join('\n'));
  const child = spawn(await ensureRedisBinary(), [file, '--sentinel'], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const sentinelUrl = `redis://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    await master.stop();
  };
  try {
    await waitFor('the Sentinel to name its master', async () => {
      const client = new Redis(sentinelUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      client.on('error', () => undefined);
      try {
        const address = (await client.call('SENTINEL', 'get-master-addr-by-name', name)) as string[] | null;
        return address?.[1] === String(master.port);
      } catch {
        return false;
      } finally {
        client.disconnect();
      }
    });
    return { master, sentinelUrl, name, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
