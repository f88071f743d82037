import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LocalRateLimiter } from '../../src/http/LocalRateLimiter.js';
import type { Permit } from '../../src/http/RequestGate.js';

// The limiter's clock is faked: each admission is read at the exact millisecond it happens.
const START = Date.UTC(2030, 0, 1);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
  vi.setSystemTime(START);
});
afterEach(() => {
  vi.useRealTimers();
});

/** Asks for a permit; `at` is when it was granted (ms since START), undefined while waiting. */
function request(limiter: LocalRateLimiter, signal?: AbortSignal): { permit: Promise<Permit>; at: () => number | undefined } {
  let at: number | undefined;
  const permit = limiter.acquire(signal).then((granted) => {
    at = Date.now() - START;
    return granted;
  });
  return { permit, at: () => at };
}

describe('LocalRateLimiter', () => {
  it('admits max requests at once, then the next one durationMs after the first release', async () => {
    const limiter = new LocalRateLimiter([{ max: 2, durationMs: 200 }]);
    const first = request(limiter);
    const second = request(limiter);
    await vi.advanceTimersByTimeAsync(0);
    expect([first.at(), second.at()]).toEqual([0, 0]);

    await vi.advanceTimersByTimeAsync(30);
    await (await first.permit).release();
    await vi.advanceTimersByTimeAsync(30);
    await (await second.permit).release();
    const third = request(limiter);

    await vi.advanceTimersByTimeAsync(169);
    expect(third.at()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(third.at()).toBe(230);
    expect((await third.permit).waitedMs).toBe(170);
  });

  it('holds every window at once: room in a short window does not let a request past a longer one\'s max', async () => {
    const limiter = new LocalRateLimiter([{ max: 2, durationMs: 100 }, { max: 3, durationMs: 1_000 }]);
    const requests = Array.from({ length: 5 }, () => {
      const asked = request(limiter);
      void asked.permit.then((permit) => permit.release());
      return asked;
    });

    await vi.advanceTimersByTimeAsync(1_000);

    expect(requests.map((asked) => asked.at())).toEqual([0, 0, 100, 1_000, 1_000]);
  });

  it('admits no more than max requests in any window of durationMs, each as soon as the window allows', async () => {
    const limiter = new LocalRateLimiter([{ max: 3, durationMs: 1_000 }]);
    // Each request's response ends as soon as it is admitted.
    const requests = Array.from({ length: 10 }, () => {
      const asked = request(limiter);
      void asked.permit.then((permit) => permit.release());
      return asked;
    });

    await vi.advanceTimersByTimeAsync(3_000);

    expect(requests.map((asked) => asked.at())).toEqual([0, 0, 0, 1_000, 1_000, 1_000, 2_000, 2_000, 2_000, 3_000]);
  });

  it('holds a slot while its request is in flight, and counts the window from its release', async () => {
    const limiter = new LocalRateLimiter([{ max: 1, durationMs: 50 }]);
    const held = await limiter.acquire();
    const next = request(limiter);

    // Ten windows pass while the first request is still in flight.
    await vi.advanceTimersByTimeAsync(500);
    expect(next.at()).toBeUndefined();
    await held.release();
    await vi.advanceTimersByTimeAsync(50);

    expect(next.at()).toBe(550);
  });

  it('lets the next request in at once when a slot is given back unused', async () => {
    const limiter = new LocalRateLimiter([{ max: 2, durationMs: 1_000 }]);
    await (await limiter.acquire()).release();
    const unused = await limiter.acquire();
    // Both slots count: the released one until 1000, the unused one while in flight.
    const next = request(limiter);

    await vi.advanceTimersByTimeAsync(100);
    expect(next.at()).toBeUndefined();
    await unused.giveBack();
    await vi.advanceTimersByTimeAsync(0);

    expect(next.at()).toBe(100);
  });

  it('settles a permit once: giving back a slot already released frees no other', async () => {
    const limiter = new LocalRateLimiter([{ max: 2, durationMs: 200 }]);
    const first = await limiter.acquire();
    await limiter.acquire();
    await first.release();
    await first.giveBack();
    const next = request(limiter);

    await vi.advanceTimersByTimeAsync(200);

    expect(next.at()).toBe(200);
  });

  it('stops waiting for a slot once its signal aborts, takes none, and holds up no request behind it', async () => {
    const limiter = new LocalRateLimiter([{ max: 1, durationMs: 200 }]);
    const held = await limiter.acquire();
    const dropped = new AbortController();
    const abandoned = request(limiter, dropped.signal);
    const behind = request(limiter);
    const outcome = abandoned.permit.catch((error: unknown) => error);

    await vi.advanceTimersByTimeAsync(50);
    dropped.abort();
    expect(await outcome).toMatchObject({ name: 'AbortError' });
    await held.release();
    await vi.advanceTimersByTimeAsync(200);

    expect(behind.at()).toBe(250);
  });

  it('rejects a request aborted while in line behind another at its turn, with no slot taken, and admits the one behind it', async () => {
    const limiter = new LocalRateLimiter([{ max: 1, durationMs: 200 }]);
    const held = await limiter.acquire();
    const first = request(limiter);
    const dropped = new AbortController();
    const abandoned = request(limiter, dropped.signal);
    const outcome = abandoned.permit.catch((error: unknown) => error);
    const behind = request(limiter);

    await vi.advanceTimersByTimeAsync(50);
    dropped.abort();
    await vi.advanceTimersByTimeAsync(50);
    await held.release();
    await vi.advanceTimersByTimeAsync(200);
    expect(first.at()).toBe(300);
    await (await first.permit).release();
    expect(await outcome).toMatchObject({ name: 'AbortError' });
    await vi.advanceTimersByTimeAsync(200);

    expect(behind.at()).toBe(500);
  });
});
