import { NamedStatement } from '../../database/NamedStatement.js';
import { TICK_COLUMNS } from '../tickState.js';

export interface RecountIdleTicksParams {
  /** How long every run of a tick must have been still: a count in flight has landed by then. */
  idleForMs: number;
  limit: number;
}

/**
 * Counts again, from their runs' rows, the ticks still running whose runs have all ended but
 * whose counts fall short (a count lost with a crash between a run's finish and its count, see
 * countTickRuns); returns those that every run has now ended. Ticks another process is counting
 * are skipped.
 */
export const recountIdleTicks = new NamedStatement<RecountIdleTicksParams>(
  'feedsync_recount_idle_ticks_v1',
  `with idle as (
      select t.id from job_ticks t
      where t.status = 'running' and t.runs_done < t.runs_total
        and not exists (select 1 from sync_runs r where r.tick_id = t.id and r.status not in ('succeeded', 'partial', 'failed'))
        and not exists (select 1 from sync_runs r where r.tick_id = t.id and r.updated_at > now() - make_interval(secs => :idleForMs::int / 1000.0))
      order by t.id
      limit :limit::int
      for update of t skip locked
    ),
    totals as (
      select r.tick_id, count(*) filter (where r.status = 'succeeded')::int as succeeded, count(*) filter (where r.status = 'partial')::int as partial,
        count(*) filter (where r.status = 'failed')::int as failed, sum(r.records_new) as records_new, sum(r.records_updated) as records_updated,
        sum(r.records_unchanged) as records_unchanged, sum(r.records_skipped) as records_skipped
      from sync_runs r join idle i on i.id = r.tick_id
      group by r.tick_id
    ),
    recounted as (
      update job_ticks t
      set runs_done = t.runs_skipped + x.succeeded + x.partial + x.failed, runs_succeeded = x.succeeded, runs_partial = x.partial, runs_failed = x.failed,
        records_new = x.records_new, records_updated = x.records_updated, records_unchanged = x.records_unchanged, records_skipped = x.records_skipped
      from totals x
      where t.id = x.tick_id
      returning t.*
    )
    select ${TICK_COLUMNS} from recounted where runs_done >= runs_total`,
);
