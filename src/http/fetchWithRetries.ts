import { setTimeout as sleep } from 'node:timers/promises';
import type { RetryPolicy } from '../config/schema.js';
import { backoffDelay } from './backoff.js';
import type { RequestGate } from './RequestGate.js';
import type { FetchedPage, PageRequest, SourceClient } from './SourceClient.js';
import { UpstreamError } from './UpstreamError.js';

export interface RetryHooks {
  /** Called before each wait; the error is the one being retried. */
  onRetry?(error: UpstreamError, retry: number, delayMs: number): void;
  /** Called with the time spent waiting for the rate limit. */
  onRateLimitWait?(waitedMs: number): void;
  /** Aborts waiting between attempts or for a rate-limit slot (e.g. on shutdown), and an attempt whose slot came after it. */
  signal?: AbortSignal;
  random?: () => number;
}

/**
 * Fetches a page, retrying network errors, timeouts, 5xx, 429, bodies cut short and passing error
 * envelopes with exponential backoff and full jitter; `Retry-After` supersedes the computed delay.
 * Other errors (bad key, 4xx, a body no retry makes readable) are thrown at once.
 */
export async function fetchWithRetries(
  client: SourceClient,
  request: PageRequest,
  policy: RetryPolicy,
  gate: RequestGate,
  hooks: RetryHooks = {},
): Promise<FetchedPage> {
  for (let attempt = 1; ; attempt++) {
    hooks.signal?.throwIfAborted();
    const permit = await gate.acquire(hooks.signal);
    if (permit.waitedMs > 0) hooks.onRateLimitWait?.(permit.waitedMs);
    if (hooks.signal?.aborted) {
      // No longer wanted by the time its slot came (a dropped guess, a run that ended): not sent, so the slot counts for nothing.
      // Awaited: a command that ends right after its run must not leave the slot taken in the shared limit.
      await Promise.resolve(permit.giveBack()).catch(() => undefined);
      hooks.signal.throwIfAborted();
    }
    let failure: unknown;
    try {
      return await client.fetchPage(request.params, request.nextUrl);
    } catch (error) {
      failure = error;
    } finally {
      // A release lost to a Redis outage only holds the slot until its lease ends.
      await Promise.resolve(permit.release()).catch(() => undefined);
    }
    if (!(failure instanceof UpstreamError) || !failure.retryable || attempt >= policy.attempts) throw failure;
    const delay = backoffDelay(policy, attempt, failure.retryAfterMs, hooks.random);
    hooks.onRetry?.(failure, attempt, delay);
    await sleep(delay, undefined, { signal: hooks.signal });
  }
}
