import { startPostgresServer, type PostgresServer } from './postgresServer.js';
import { startRedisServer, type RedisServer } from './redisServer.js';

/** Where Redis and Postgres are, and a way to stop those this process started. */
export interface LocalStack {
  redisUrl: string;
  databaseUrl: string;
  /** True for each server started here rather than taken from the environment. */
  started: { redis: boolean; postgres: boolean };
  stop(): Promise<void>;
}

/**
 * Uses REDIS_URL / DATABASE_URL when set; otherwise starts throwaway servers on free loopback
 * ports. `stop()` stops only what was started here.
 */
export async function ensureLocalStack(env: NodeJS.ProcessEnv = process.env): Promise<LocalStack> {
  const [redis, postgres] = await Promise.all<[Promise<RedisServer | undefined>, Promise<PostgresServer | undefined>]>([
    env.REDIS_URL ? Promise.resolve(undefined) : startRedisServer(),
    env.DATABASE_URL ? Promise.resolve(undefined) : startPostgresServer(),
  ]);
  return {
    redisUrl: env.REDIS_URL ?? redis!.url,
    databaseUrl: env.DATABASE_URL ?? postgres!.url,
    started: { redis: redis !== undefined, postgres: postgres !== undefined },
    async stop() {
      await Promise.all([redis?.stop(), postgres?.stop()]);
    },
  };
}
