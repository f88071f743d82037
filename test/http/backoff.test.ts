import { describe, expect, it } from 'vitest';
import { retryPolicySchema } from '../../src/config/schema.js';
import { backoffDelay } from '../../src/http/backoff.js';
import { parseRetryAfter } from '../../src/http/retryAfter.js';

const policy = retryPolicySchema.parse({ baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 5000 });

describe('backoffDelay', () => {
  it('doubles the ceiling with each retry (full jitter picks within it)', () => {
    expect([1, 2, 3, 4].map((retry) => backoffDelay(policy, retry, undefined, () => 0.999))).toEqual([99, 199, 399, 799]);
  });

  it('caps the ceiling at maxDelayMs', () => {
    expect(backoffDelay(policy, 10, undefined, () => 0.5)).toBe(500);
  });

  it('lets Retry-After supersede the computed delay, capped', () => {
    expect(backoffDelay(policy, 1, 3000)).toBe(3000);
    expect(backoffDelay(policy, 1, 60_000)).toBe(5000);
  });
});

describe('parseRetryAfter', () => {
  it('reads delta seconds', () => {
    expect(parseRetryAfter('3')).toBe(3000);
  });

  it('reads an HTTP-date relative to now', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:07 GMT', now)).toBe(7000);
  });

  it('ignores a value that is neither', () => {
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});
