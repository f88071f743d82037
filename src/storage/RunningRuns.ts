import type pg from 'pg';
import { findOtherRunningRun } from './statements/findOtherRunningRun.js';

/** A "running" run with no stored page for this long is taken to be abandoned by the overlap policy. */
const STALE_RUN_MS = 15 * 60_000;

/** The overlap check: whether a query already has a run in progress. */
export class RunningRuns {
  constructor(private readonly pool: Pick<pg.Pool, 'query'>) {}

  /** Whether a run of this job and query other than `runKey` is running now (and not abandoned). */
  async anotherIsRunning(job: string, queryIndex: number, runKey: string): Promise<boolean> {
    const { rows } = await this.pool.query(findOtherRunningRun.with({ job, queryIndex, runKey, staleAfterMs: STALE_RUN_MS }));
    return rows.length > 0;
  }
}
