import type { Redis } from 'ioredis';
import type { RequestGate } from './RequestGate.js';

/**
 * Sliding-window log in one sorted set, trimmed and checked atomically, on Redis's clock so that
 * workers on several machines agree. Returns 0 when the request may go now, else the ms to wait.
 */
const ACQUIRE = `
local key = KEYS[1]
local max = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local member = ARGV[3]
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
if redis.call('ZCARD', key) < max then
  redis.call('ZADD', key, now, member)
  redis.call('PEXPIRE', key, window)
  return 0
end
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
return math.max(1, tonumber(oldest[2]) + window - now)
`;

type LimiterRedis = Redis & { feedsyncAcquire(key: string, max: number, windowMs: number, member: string): Promise<number> };

let sequence = 0;

/**
 * A source's request rate limit shared by every worker process through Redis: at most `max`
 * requests in any `durationMs`. BullMQ's own limiter counts jobs, and one sync job sends many
 * requests, so the limit is kept per request here.
 */
export class RedisRateLimiter implements RequestGate {
  private readonly redis: LimiterRedis;
  private readonly key: string;

  constructor(
    redis: Redis,
    source: string,
    private readonly max: number,
    private readonly durationMs: number,
    prefix = 'feedsync',
  ) {
    if (!('feedsyncAcquire' in redis)) redis.defineCommand('feedsyncAcquire', { numberOfKeys: 1, lua: ACQUIRE });
    this.redis = redis as LimiterRedis;
    this.key = `${prefix}:ratelimit:${source}`;
  }

  async acquire(): Promise<number> {
    const started = Date.now();
    for (;;) {
      const member = `${process.pid}-${Date.now()}-${sequence++}`;
      const waitMs = await this.redis.feedsyncAcquire(this.key, this.max, this.durationMs, member);
      if (waitMs === 0) return Date.now() - started;
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
}
