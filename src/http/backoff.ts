import type { RetryPolicy } from '../config/schema.js';

/**
 * Delay before retry number `retry` (1-based): "full jitter" exponential backoff, a random
 * point in [0, min(maxDelay, base * 2^(retry-1))]. A Retry-After from the upstream supersedes
 * it, capped by `maxRetryAfterMs`.
 */
export function backoffDelay(policy: RetryPolicy, retry: number, retryAfterMs: number | undefined, random: () => number = Math.random): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, policy.maxRetryAfterMs);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.floor(random() * ceiling);
}
