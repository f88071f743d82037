import { NamedStatement } from '../../database/NamedStatement.js';
import { RUN_COLUMNS, type RunRow } from '../runState.js';

export interface FindIdleRunsParams {
  /** Only runs whose row has not changed for this long… */
  idleForMs: number;
  /** …and has changed within this long. */
  changedWithinMs: number;
  /** SQL `like` patterns, one of which the run key must match. */
  runKeyPatterns: string[];
  limit: number;
}

export type IdleRunRow = RunRow & { scheduled_for: Date | null };

/**
 * Unfinished runs (queued, running, interrupted, retrying) whose row has not changed for :idleForMs but
 * has within :changedWithinMs, longest idle first. The statuses are literals so that the partial index on unfinished runs by
 * update time serves it.
 */
export const findIdleRuns = new NamedStatement<FindIdleRunsParams>(
  'feedsync_find_idle_runs_v4',
  `select ${RUN_COLUMNS}, scheduled_for from sync_runs
    where status in ('queued', 'running', 'interrupted', 'retrying')
      and updated_at < now() - make_interval(secs => :idleForMs::double precision / 1000)
      and updated_at > now() - make_interval(secs => :changedWithinMs::double precision / 1000)
      and run_key like any(:runKeyPatterns::text[])
    order by updated_at
    limit :limit::int`,
);
