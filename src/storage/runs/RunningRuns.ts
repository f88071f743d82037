import type pg from 'pg';
import { runStateOf, type RunState } from './runState.js';
import { findIdleRuns, type IdleRunRow } from './statements/findIdleRuns.js';
import { findOtherRunningRun } from './statements/findOtherRunningRun.js';
import { findUnfinishedQueries } from './statements/findUnfinishedQueries.js';

/** A "running" run with no stored page for this long is taken to be abandoned by the overlap policy. */
const STALE_RUN_MS = 15 * 60_000;
/** How long a queued run may wait for its queue job before it is taken to have lost it (the reconciler's default window). */
const STALE_QUEUED_RUN_MS = 24 * 3_600_000;

/** An unfinished run that has not changed for a while, with the tick it was scheduled for. */
export type IdleRun = RunState & { scheduledFor: Date | null };

/** Runs in progress: the overlap check, and those that have gone quiet. */
export class RunningRuns {
  constructor(private readonly pool: Pick<pg.Pool, 'query'>) {}

  /**
   * Whether a run of this job and query other than `runKey` goes first: one under way now (and not
   * abandoned), or, for a run not started, one queued before it whose key is one of
   * `queuedRunKeyPatterns` (runs with a queue job) and that has not waited past a day.
   */
  async anotherIsRunning(job: string, queryKey: string, runKey: string, queuedRunKeyPatterns: string[]): Promise<boolean> {
    const { rows } = await this.pool.query(findOtherRunningRun.with({ job, queryKey, runKey, staleAfterMs: STALE_RUN_MS, queuedStaleAfterMs: STALE_QUEUED_RUN_MS, queuedRunKeyPatterns }));
    return rows.length > 0;
  }

  /** Which of these queries of a job have a run not ended yet (queued or under way, and not abandoned). */
  async unfinishedQueries(job: string, queryKeys: string[]): Promise<Set<string>> {
    if (queryKeys.length === 0) return new Set();
    const { rows } = await this.pool.query<{ query_key: string }>(findUnfinishedQueries.with({ job, queryKeys, staleAfterMs: STALE_RUN_MS }));
    return new Set(rows.map((row) => row.query_key));
  }

  /**
   * Unfinished runs whose key matches one of `runKeyPatterns` and whose row has not changed for
   * `idleForMs` but has within `changedWithinMs`, longest idle first.
   */
  async idle(idleForMs: number, changedWithinMs: number, runKeyPatterns: string[], limit: number): Promise<IdleRun[]> {
    const { rows } = await this.pool.query<IdleRunRow>(findIdleRuns.with({ idleForMs, changedWithinMs, runKeyPatterns, limit }));
    return rows.map((row) => ({ ...runStateOf(row), scheduledFor: row.scheduled_for }));
  }
}
