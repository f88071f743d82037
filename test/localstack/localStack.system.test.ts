import { Redis } from 'ioredis';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { ensureLocalStack } from '../../src/localstack/localStack.js';

describe('ensureLocalStack', () => {
  it('uses REDIS_URL and DATABASE_URL when they are set, starting nothing', async () => {
    const stack = await ensureLocalStack({ REDIS_URL: 'redis://127.0.0.1:1', DATABASE_URL: 'postgres://x@127.0.0.1:1/x' });
    expect(stack).toMatchObject({ redisUrl: 'redis://127.0.0.1:1', databaseUrl: 'postgres://x@127.0.0.1:1/x', started: { redis: false, postgres: false } });
    await stack.stop();
  });

  it('starts throwaway Redis and Postgres on loopback and stops them', async () => {
    const stack = await ensureLocalStack({});
    expect(stack.started).toEqual({ redis: true, postgres: true });
    const redis = new Redis(stack.redisUrl);
    expect(await redis.ping()).toBe('PONG');
    redis.disconnect();
    const client = new pg.Client({ connectionString: stack.databaseUrl });
    await client.connect();
    const { rows } = await client.query<{ db: string }>('select current_database() as db');
    expect(rows[0]?.db).toBe('feedsync');
    await client.end();
    await stack.stop();
    const after = new pg.Client({ connectionString: stack.databaseUrl, connectionTimeoutMillis: 2000 });
    await expect(after.connect()).rejects.toThrow();
  }, 60_000);
});
