import type { PagePosition, StopReason } from '../paging/Paginator.js';

/** What a run stores after each page so that a retry resumes exactly there. */
export interface RunCheckpoint {
  position: PagePosition;
  /** Lower bound taken from the incremental cursor when the run began; fixed for the whole run. */
  incrementalStart?: string;
  /** Set once an incremental value was stored below one stored before it: a partial run's cursor then stays where it was. */
  outOfOrder?: true;
  /**
   * Set with the last page: why paging ended there. A run resumed after it (its finish was never
   * written) finishes as it would have, instead of fetching its last page again.
   */
  end?: { stopReason: StopReason; expectedTotal?: number };
}

/** Compares field values numerically when both are integers (block numbers), else as text. */
export function maxValue(a: string | null | undefined, b: string): string {
  if (a === null || a === undefined) return b;
  const numeric = /^\d+$/;
  if (numeric.test(a) && numeric.test(b)) return a.length !== b.length ? (a.length > b.length ? a : b) : a >= b ? a : b;
  return a >= b ? a : b;
}

/** The incremental lower bound: the stored cursor minus the overlap (numeric cursors only). */
export function incrementalStart(cursor: string, overlap: number): string {
  if (!/^\d+$/.test(cursor)) return cursor;
  const start = BigInt(cursor) - BigInt(overlap);
  return (start < 0n ? 0n : start).toString();
}
