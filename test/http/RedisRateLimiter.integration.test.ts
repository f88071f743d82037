import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, inject, vi } from 'vitest';
import { rateLimitKey, RateLimitUnavailableError, RedisRateLimiter } from '../../src/http/RedisRateLimiter.js';
import { openRedis } from '../../src/redis/openRedis.js';
import type { RedisClient } from '../../src/redis/RedisTarget.js';

const connections: RedisClient[] = [];
afterAll(() => connections.forEach((connection) => connection.disconnect()));

function maxInAnyWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let max = 0;
  for (let start = 0, end = 0; end < sorted.length; end++) {
    while (sorted[end]! - sorted[start]! >= windowMs) start++;
    max = Math.max(max, end - start + 1);
  }
  return max;
}

/** A limiter of one slot a minute under a prefix of its own, and how many slots its sorted set holds. */
function oneSlotLimiter() {
  const prefix = `test-${randomBytes(4).toString('hex')}`;
  const connection = new Redis(inject('redisUrl'));
  connections.push(connection);
  return { limiter: new RedisRateLimiter(connection, 'music', [{ max: 1, durationMs: 60_000 }], prefix), slotsTaken: () => connection.zcard(`${prefix}:ratelimit:{music}:60000`) };
}

/** Asks `limiter` for a slot, aborts once it waits after a look at Redis, and returns what the ask rejected with. */
async function abortedWhileWaiting(limiter: RedisRateLimiter): Promise<unknown> {
  const dropped = new AbortController();
  // The limiter's wait between its looks at Redis never ends by itself here: only the abort can end it.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  try {
    const timersBefore = vi.getTimerCount();
    const waiting = limiter.acquire(dropped.signal).catch((error: unknown) => error);
    await vi.waitFor(() => expect(vi.getTimerCount()).toBeGreaterThan(timersBefore));
    dropped.abort();
    return await waiting;
  } finally {
    vi.useRealTimers();
  }
}

describe('RedisRateLimiter', () => {
  it('admits at most max requests in any window across limiters on separate connections', async () => {
    const prefix = `test-${randomBytes(4).toString('hex')}`;
    const limiters = [0, 1, 2].map(() => {
      const connection = new Redis(inject('redisUrl'));
      connections.push(connection);
      return new RedisRateLimiter(connection, 'music', [{ max: 5, durationMs: 500 }], prefix);
    });
    const admitted: number[] = [];
    await Promise.all(
      Array.from({ length: 18 }, async (_, i) => {
        const permit = await limiters[i % 3]!.acquire();
        await permit.release();
        admitted.push(Date.now());
      }),
    );
    // Redis stamps each slot on its own clock; these stamps are taken here after a round trip, so
    // two of them can be a scheduling delay closer than Redis saw them on a busy machine. Counting
    // in windows 60 ms short of 500 allows for that and still catches a sixth slot let in early.
    expect(maxInAnyWindow(admitted, 440)).toBeLessThanOrEqual(5);
    expect(Math.max(...admitted) - Math.min(...admitted)).toBeGreaterThanOrEqual(1000);
  });

  it('fails with RateLimitUnavailableError naming the source when Redis cannot be reached', async () => {
    const unreachable = openRedis('redis://127.0.0.1:1', 'producer');
    connections.push(unreachable);
    const limiter = new RedisRateLimiter(unreachable, 'music', [{ max: 5, durationMs: 500 }], 'test');

    const error = await limiter.acquire().catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(RateLimitUnavailableError);
    expect((error as Error).message).toMatch(/^music: the rate limit shared in Redis could not be consulted/);
  });

  it('counts a slot given back unused for nothing', async () => {
    const { limiter, slotsTaken } = oneSlotLimiter();

    const unused = await limiter.acquire();
    expect(await slotsTaken()).toBe(1);
    await unused.giveBack();

    expect(await slotsTaken()).toBe(0);
  });

  it('stops waiting for a slot once its signal aborts, and takes none', async () => {
    const { limiter, slotsTaken } = oneSlotLimiter();
    await limiter.acquire();
    expect(await abortedWhileWaiting(limiter)).toMatchObject({ name: 'AbortError' });
    expect(await slotsTaken()).toBe(1);
  });

  it('holds every window at once: a slot is taken in all of them or in none', async () => {
    const prefix = `test-${randomBytes(4).toString('hex')}`;
    const connection = new Redis(inject('redisUrl'));
    connections.push(connection);
    const windows = [{ max: 5, durationMs: 60_000 }, { max: 2, durationMs: 86_400_000 }];
    const limiter = new RedisRateLimiter(connection, 'music', windows, prefix);
    const taken = () => Promise.all(windows.map((window) => connection.zcard(rateLimitKey(prefix, 'music', window))));
    for (let i = 0; i < 2; i++) await (await limiter.acquire()).release();
    expect(await taken()).toEqual([2, 2]);

    // The short window has room; the day's does not, so the third waits, and takes no slot in either.
    expect(await abortedWhileWaiting(limiter)).toMatchObject({ name: 'AbortError' });
    expect(await taken()).toEqual([2, 2]);
  });
});

