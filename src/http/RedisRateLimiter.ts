import type { RateWindow } from '../config/schema.js';
import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../redis/RedisTarget.js';
import type { Permit, RequestGate } from './RequestGate.js';
import { slotWait } from './slotWait.js';

/**
 * A sliding-window log a window (KEYS[i], its max and length ARGV[2 + 2i - 1], ARGV[2 + 2i]), on
 * Redis's clock so workers on several machines agree; a slot is taken in every window or in none.
 * A request in flight is scored its lease's end (now + leaseMs), so it holds its slot until its
 * response ends and RELEASE restamps it, or, if its process died, until the lease runs out.
 * Returns 0 when the request may go now, else the ms to wait (at most a second: then it looks again).
 */
const ACQUIRE = `
local member = ARGV[1]
local leaseMs = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local wait = 0
for i, key in ipairs(KEYS) do
  local max = tonumber(ARGV[1 + 2 * i])
  local window = tonumber(ARGV[2 + 2 * i])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local taken = redis.call('ZCARD', key)
  if taken >= max then
    -- Room comes when the slots beyond max - 1 have left the window, the oldest first.
    local freeing = redis.call('ZRANGE', key, taken - max, taken - max, 'WITHSCORES')
    wait = math.max(wait, tonumber(freeing[2]) + window - now)
  end
end
if wait > 0 then
  return math.max(1, math.min(wait, 1000))
end
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, now + leaseMs, member)
  redis.call('PEXPIRE', key, tonumber(ARGV[2 + 2 * i]) + leaseMs)
end
return 0
`;

/** Restamps a slot, in every window, with the time its response ended. */
const RELEASE = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
for _, key in ipairs(KEYS) do
  if redis.call('ZSCORE', key, ARGV[1]) then
    redis.call('ZADD', key, 'XX', now, ARGV[1])
  end
end
return 0
`;

type LimiterRedis = RedisClient & {
  feedsyncAcquire(keyCount: number, ...keysAndArgs: (string | number)[]): Promise<number>;
  feedsyncRelease(keyCount: number, ...keysAndArgs: string[]): Promise<number>;
};

/** A source's shared rate limit could not be consulted in Redis, so no request may go. */
export class RateLimitUnavailableError extends Error {
  override readonly name = 'RateLimitUnavailableError';
}

/** How long a slot is held if its process dies before releasing it. */
const LEASE_MS = 60_000;

/**
 * A source's request rate limit shared by every worker process through Redis: in every window, at
 * most `max` requests in any `durationMs`, counted from when each response ended. BullMQ's own
 * limiter counts jobs, and one sync job sends many requests, so the limit is kept per request here.
 */
export class RedisRateLimiter implements RequestGate {
  private readonly redis: LimiterRedis;
  /** A sorted set a window, all in one hash slot (the `{…}` tag), as one script reads them all on a cluster. */
  private readonly keys: string[];
  private readonly windowArgs: number[];

  constructor(
    redis: RedisClient,
    private readonly source: string,
    windows: readonly RateWindow[],
    prefix: string,
  ) {
    if (!('feedsyncAcquire' in redis)) {
      // The key count goes with each call: a source's windows are its own.
      redis.defineCommand('feedsyncAcquire', { lua: ACQUIRE });
      redis.defineCommand('feedsyncRelease', { lua: RELEASE });
    }
    this.redis = redis as LimiterRedis;
    this.keys = windows.map((window) => rateLimitKey(prefix, source, window));
    this.windowArgs = windows.flatMap((window) => [window.max, window.durationMs]);
  }

  async acquire(signal?: AbortSignal): Promise<Permit> {
    const started = Date.now();
    // Unique across machines: containers often all run as pid 1.
    const member = randomUUID();
    for (;;) {
      signal?.throwIfAborted();
      const waitMs = await this.redis.feedsyncAcquire(this.keys.length, ...this.keys, member, LEASE_MS, ...this.windowArgs).catch((error: unknown) => {
        throw new RateLimitUnavailableError(`${this.source}: the rate limit shared in Redis could not be consulted (${(error as Error).message})`, { cause: error });
      });
      if (waitMs === 0) break;
      await slotWait(waitMs, signal).ended;
    }
    return {
      waitedMs: Date.now() - started,
      release: async () => {
        await this.redis.feedsyncRelease(this.keys.length, ...this.keys, member);
      },
      giveBack: async () => {
        // One key a call: a multi-key command needs its keys in one slot, and each call here is one.
        await Promise.all(this.keys.map((key) => this.redis.zrem(key, member)));
      },
    };
  }
}

/** Where a source's window keeps its slots: `<prefix>:ratelimit:{<source>}:<durationMs>`. */
export function rateLimitKey(prefix: string, source: string, window: RateWindow): string {
  return `${prefix}:ratelimit:{${source}}:${window.durationMs}`;
}

/** A `makeGate` for a source registry: every source's limit is shared through `redis`. */
export function sharedRateLimits(redis: RedisClient, prefix: string) {
  return (source: string, windows: readonly RateWindow[]): RequestGate => new RedisRateLimiter(redis, source, windows, prefix);
}
