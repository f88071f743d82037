import { NamedStatement } from '../../database/NamedStatement.js';
import { TICK_COLUMNS } from '../tickState.js';

/** The ticks whose ended runs to count. */
export interface CountTickRunsParams {
  tickIds: string[];
}

/**
 * Adds the ended runs of these ticks not counted yet to their ticks' counts, marking each counted
 * (sync_runs.tick_counted) in the same statement; returns the ticks still running that every run
 * has now ended. A run is counted once, by whichever process comes first: a second count of the
 * same run waits for the first's mark and finds it counted. So a count lost with a crash after a
 * run's finish (its mark with it) is made by the next count of its tick.
 *
 * It runs after the finishes commit, in a statement of its own that commits without waiting for
 * its WAL (synchronous_commit off, for this statement alone): a big tick's finishes hold its row
 * for a statement each, not for a transaction and a disk flush. A crash can lose a count, never
 * half of one: the marks go with it. The runs are marked, then the tick rows locked in id order,
 * so that two counts never wait on each other in a cycle.
 */
export const countTickRuns = new NamedStatement<CountTickRunsParams>(
  'feedsync_count_tick_runs_v4',
  `with commit_async as materialized (select set_config('synchronous_commit', 'off', true)),
    marked as (
      update sync_runs r set tick_counted = true
      from commit_async
      where r.tick_id = any(:tickIds::uuid[]) and not r.tick_counted and r.status in ('succeeded', 'partial', 'failed')
      returning r.tick_id, r.status, r.records_new, r.records_updated, r.records_unchanged, r.records_skipped
    ),
    ended as (
      select tick_id, count(*) filter (where status = 'succeeded')::int as succeeded, count(*) filter (where status = 'partial')::int as partial,
        count(*) filter (where status = 'failed')::int as failed, sum(records_new) as records_new, sum(records_updated) as records_updated,
        sum(records_unchanged) as records_unchanged, sum(records_skipped) as records_skipped
      from marked
      group by tick_id
    ),
    locked as (
      select t.id from job_ticks t where t.id in (select tick_id from ended) order by t.id for update of t
    ),
    counted as (
      update job_ticks t
      set runs_done = t.runs_done + e.succeeded + e.partial + e.failed, runs_succeeded = t.runs_succeeded + e.succeeded, runs_partial = t.runs_partial + e.partial,
        runs_failed = t.runs_failed + e.failed,
        records_new = t.records_new + e.records_new, records_updated = t.records_updated + e.records_updated, records_unchanged = t.records_unchanged + e.records_unchanged,
        records_skipped = t.records_skipped + e.records_skipped
      from ended e, locked l
      where t.id = e.tick_id and l.id = t.id
      returning t.*
    )
    select ${TICK_COLUMNS} from counted where status = 'running' and runs_done >= runs_total`,
);
