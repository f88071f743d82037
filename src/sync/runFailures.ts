import { UpstreamError } from '../http/UpstreamError.js';
import { PagingStyleError } from '../paging/paginatorStyles.js';
import { RecordShapeError } from '../paging/RecordShapeError.js';
import { databaseFailureOf, isPermanentDatabaseFailure } from '../storage/database/databaseError.js';
import { withoutNulChars } from '../storage/records/nulChars.js';

/** A run resumed with a different query at its index than it started with. */
export class QueryChangedError extends Error {
  override readonly name = 'QueryChangedError';
  readonly kind = 'query_changed';
}

/** A run whose worker crashed more often than worker.maxCrashes allows: it is not taken up again. */
export class CrashedTooOftenError extends Error {
  override readonly name = 'CrashedTooOftenError';
  readonly kind = 'crashed_too_often';

  constructor(maxCrashes: number, pages: number) {
    super(`the run's worker crashed more than worker.maxCrashes (${maxCrashes}) times; it stopped after page ${pages}`);
  }
}

/** The sync was interrupted by shutdown between pages; nothing is lost, the run resumes later. */
export class SyncInterruptedError extends Error {
  override readonly name = 'SyncInterruptedError';
}

/** How many attempts of a run the queue has made before this one, and how many it allows. */
export interface RunAttempts {
  made: number;
  allowed: number;
}

/** A failure as a run records it: its kind and a message fit for a log line and a column. */
export interface FailureRecord {
  kind: string;
  message: string;
}

const MAX_ERROR_CHARS = 2_000;

/** Whether a failure is worth another attempt: passing upstream faults and lost races are. */
export function isRetryable(error: Error): boolean {
  if (error instanceof UpstreamError || error instanceof RecordShapeError) return error.retryable;
  if (error instanceof QueryChangedError || error instanceof PagingStyleError || error instanceof CrashedTooOftenError) return false;
  const database = databaseFailureOf(error);
  // Storage faults (Postgres restarting) are worth retrying; data the database rejects is not.
  return database === undefined || !isPermanentDatabaseFailure(database);
}

/**
 * Whether this failure ends the run for good (so its notice is posted now). An interruption ends
 * it only if nothing resumes it; any other failure does when it cannot succeed or no attempt is
 * left.
 */
export function isFinalFailure(error: Error, attempts: RunAttempts, resumable: boolean): boolean {
  if (error instanceof SyncInterruptedError) return !resumable;
  return !isRetryable(error) || attempts.made + 1 >= attempts.allowed;
}

/** What a thrown value means for a run: an interruption if shutdown was asked for, otherwise the error itself. */
export function failureOf(thrown: unknown, interrupted: boolean, pages: number): Error {
  if (interrupted && !(thrown instanceof SyncInterruptedError)) return new SyncInterruptedError(`interrupted after page ${pages}`, { cause: thrown });
  return thrown instanceof Error ? thrown : new Error(String(thrown));
}

export function recordOf(failure: Error): FailureRecord {
  const database = databaseFailureOf(failure);
  const kind =
    failure instanceof UpstreamError || failure instanceof RecordShapeError || failure instanceof QueryChangedError || failure instanceof CrashedTooOftenError
      ? failure.kind
      : database
        ? `database_${database.code}`
        : failure.name;
  // Drizzle's own message quotes every parameter (a whole page): keep the database's reason only.
  // Text columns cannot hold U+0000, which an upstream's message may.
  const message = withoutNulChars(database ? `database: ${database.message}` : failure.message).slice(0, MAX_ERROR_CHARS);
  return { kind, message };
}
