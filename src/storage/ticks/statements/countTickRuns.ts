import { NamedStatement } from '../../database/NamedStatement.js';
import { TICK_COLUMNS } from '../tickState.js';

/** Per tick, the runs that just ended and their records: one element per tick. */
export interface CountTickRunsParams {
  tickIds: string[];
  succeeded: number[];
  partial: number[];
  failed: number[];
  recordsNew: number[];
  recordsUpdated: number[];
  recordsUnchanged: number[];
  recordsSkipped: number[];
}

/**
 * Adds runs that just ended to their ticks' counts; returns the ticks still running that every
 * run has now ended. The tick rows are locked in id order first, so that two finishes touching
 * the same ticks never wait on each other in a cycle; the one that counts a tick's last run sees
 * every other run counted (it waited for their transactions).
 */
export const countTickRuns = new NamedStatement<CountTickRunsParams>(
  'feedsync_count_tick_runs_v3',
  `with ended as (
      select * from unnest(:tickIds::uuid[], :succeeded::int[], :partial::int[], :failed::int[], :recordsNew::bigint[], :recordsUpdated::bigint[], :recordsUnchanged::bigint[], :recordsSkipped::bigint[])
        as e(tick_id, succeeded, partial, failed, records_new, records_updated, records_unchanged, records_skipped)
    ),
    locked as (
      select t.id from job_ticks t where t.id in (select tick_id from ended) order by t.id for update
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
