import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../redis/RedisTarget.js';
import type { Permit, RequestGate } from './RequestGate.js';
import { slotWait } from './slotWait.js';

/**
 * Sliding-window log in one sorted set, on Redis's clock so workers on several machines agree.
 * A request in flight is scored its lease's end (now + leaseMs), so it holds its slot until its
 * response ends and RELEASE restamps it, or, if its process died, until the lease runs out.
 * Returns 0 when the request may go now, else the ms to wait.
 */
const ACQUIRE = `
local key = KEYS[1]
local max = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local member = ARGV[3]
local leaseMs = tonumber(ARGV[4])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
if redis.call('ZCARD', key) < max then
  redis.call('ZADD', key, now + leaseMs, member)
  redis.call('PEXPIRE', key, window + leaseMs)
  return 0
end
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
return math.max(1, math.min(tonumber(oldest[2]) + window - now, 1000))
`;

/** Restamps a slot with the time its response ended. */
const RELEASE = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  redis.call('ZADD', KEYS[1], 'XX', now, ARGV[1])
end
return 0
`;

type LimiterRedis = RedisClient & {
  feedsyncAcquire(key: string, max: number, windowMs: number, member: string, leaseMs: number): Promise<number>;
  feedsyncRelease(key: string, member: string): Promise<number>;
};

/** A source's shared rate limit could not be consulted in Redis, so no request may go. */
export class RateLimitUnavailableError extends Error {
  override readonly name = 'RateLimitUnavailableError';
}

/** How long a slot is held if its process dies before releasing it. */
const LEASE_MS = 60_000;

/**
 * A source's request rate limit shared by every worker process through Redis: at most `max`
 * requests in any `durationMs`, counted from when each response ended. BullMQ's own limiter
 * counts jobs, and one sync job sends many requests, so the limit is kept per request here.
 */
export class RedisRateLimiter implements RequestGate {
  private readonly redis: LimiterRedis;
  private readonly key: string;

  constructor(
    redis: RedisClient,
    private readonly source: string,
    private readonly max: number,
    private readonly durationMs: number,
    prefix: string,
  ) {
    if (!('feedsyncAcquire' in redis)) {
      redis.defineCommand('feedsyncAcquire', { numberOfKeys: 1, lua: ACQUIRE });
      redis.defineCommand('feedsyncRelease', { numberOfKeys: 1, lua: RELEASE });
    }
    this.redis = redis as LimiterRedis;
    this.key = `${prefix}:ratelimit:${source}`;
  }

  async acquire(signal?: AbortSignal): Promise<Permit> {
    const started = Date.now();
    // Unique across machines: containers often all run as pid 1.
    const member = randomUUID();
    for (;;) {
      signal?.throwIfAborted();
      const waitMs = await this.redis.feedsyncAcquire(this.key, this.max, this.durationMs, member, LEASE_MS).catch((error: unknown) => {
        throw new RateLimitUnavailableError(`${this.source}: the rate limit shared in Redis could not be consulted (${(error as Error).message})`, { cause: error });
      });
      if (waitMs === 0) break;
      await slotWait(waitMs, signal).ended;
    }
    return {
      waitedMs: Date.now() - started,
      release: async () => {
        await this.redis.feedsyncRelease(this.key, member);
      },
      giveBack: async () => {
        await this.redis.zrem(this.key, member);
      },
    };
  }
}

/** A `makeGate` for a source registry: every source's limit is shared through `redis`. */
export function sharedRateLimits(redis: RedisClient, prefix: string) {
  return (source: string, max: number, durationMs: number): RequestGate => new RedisRateLimiter(redis, source, max, durationMs, prefix);
}
