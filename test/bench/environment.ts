import { readFileSync } from 'node:fs';
import { cpus, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { REPO_ROOT } from './simulatorProcess.js';

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryMB: number;
  platform: string;
}

export interface Versions {
  node: string;
  postgres: string;
  redis: string;
  bullmq: string;
  undici: string;
}

export function machine(): Machine {
  const list = cpus();
  return { cpus: list.length, cpuModel: list[0]?.model.trim() ?? 'unknown', memoryMB: Math.round(totalmem() / 2 ** 20), platform: `${process.platform} ${release()}` };
}

function packageVersion(name: string): string {
  return (JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

export async function versions(databaseUrl: string, redisUrl: string): Promise<Versions> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    const { rows } = await client.query<{ server_version: string }>('show server_version');
    const info = await redis.info('server');
    return {
      node: process.version,
      postgres: rows[0]?.server_version ?? 'unknown',
      redis: /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown',
      bullmq: packageVersion('bullmq'),
      undici: packageVersion('undici'),
    };
  } finally {
    await client.end();
    redis.disconnect();
  }
}
