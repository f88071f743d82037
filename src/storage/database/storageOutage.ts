import { setTimeout as sleep } from 'node:timers/promises';
import { causesOf, databaseFailureOf } from './databaseError.js';

/** Socket errors of a database that is down or restarting. */
const LOST_CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);

/**
 * pg's own words for a lost connection: terminated under a statement, or already lost when a
 * statement was sent on it (handed out by the pool between its loss and the pool hearing of it).
 */
const LOST_CONNECTION_MESSAGE = /^(Connection terminated|Client has encountered a connection error and is not queryable)/;

const FIRST_WAIT_MS = 250;
const LONGEST_WAIT_MS = 5_000;

/**
 * Whether a failure means the database is out of reach for now (down, restarting, refusing
 * connections), as opposed to a statement it refused: SQLSTATE class 08 (connection exception)
 * or 57P (shutdown, crash, cannot connect now), a lost socket, or pg's word for a lost connection.
 */
export function isStorageOutage(error: unknown): boolean {
  const failure = databaseFailureOf(error);
  if (failure) return failure.code.startsWith('08') || failure.code.startsWith('57P');
  for (const cause of causesOf(error)) {
    if (typeof cause.code === 'string' && LOST_CONNECTION_CODES.has(cause.code)) return true;
    if (LOST_CONNECTION_MESSAGE.test(cause.message)) return true;
  }
  return false;
}

export interface WaitOutOptions {
  /** How long an outage is waited out in all before its failure is let through (0: not at all). */
  maxWaitMs: number;
  /** Ends the wait early (shutdown): the failure is let through. */
  signal?: AbortSignal;
  /** Told before each wait. */
  onWait?: (error: unknown, waitMs: number) => void;
}

/**
 * Runs a storage operation, and again after a backoff for as long as the database is out of
 * reach, up to `maxWaitMs` in all: a Postgres restart costs a run some seconds, not an attempt.
 * Any other failure, and an outage past the bound, is thrown as is.
 */
export async function waitOutStorageOutage<T>(operation: () => Promise<T>, options: WaitOutOptions): Promise<T> {
  const giveUpAt = performance.now() + options.maxWaitMs;
  for (let waitMs = FIRST_WAIT_MS; ; waitMs = Math.min(waitMs * 2, LONGEST_WAIT_MS)) {
    try {
      return await operation();
    } catch (error) {
      const left = giveUpAt - performance.now();
      if (!isStorageOutage(error) || left <= 0 || options.signal?.aborted) throw error;
      const wait = Math.min(waitMs, left);
      options.onWait?.(error, wait);
      await sleep(wait, undefined, { signal: options.signal }).catch(() => undefined);
    }
  }
}
