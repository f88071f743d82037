import { describe, expect, it } from 'vitest';
import { LocalRateLimiter } from '../../src/http/RequestGate.js';

describe('LocalRateLimiter', () => {
  it('admits max requests at once, then waits for the window to pass since the first release', async () => {
    const limiter = new LocalRateLimiter(2, 200);
    const started = Date.now();
    const first = await limiter.acquire();
    const second = await limiter.acquire();
    expect(Date.now() - started).toBeLessThan(50);
    await first.release();
    await second.release();
    const third = await limiter.acquire();
    expect(Date.now() - started).toBeGreaterThanOrEqual(195);
    expect(third.waitedMs).toBeGreaterThanOrEqual(150);
  });

  it('holds a slot while its request is in flight', async () => {
    const limiter = new LocalRateLimiter(1, 50);
    const held = await limiter.acquire();
    let admitted = false;
    const next = limiter.acquire().then((permit) => {
      admitted = true;
      return permit;
    });
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(admitted).toBe(false);
    await held.release();
    expect((await next).waitedMs).toBeGreaterThanOrEqual(120);
  });
});
