import { NamedStatement } from '../../database/NamedStatement.js';

export interface FindUncountedTicksParams {
  /** How long an uncounted run must have ended: a count under way has landed by then. */
  idleForMs: number;
  limit: number;
}

/** Ticks with an ended run not counted to them (a count lost with its process), on sync_runs_uncounted_idx. */
export const findUncountedTicks = new NamedStatement<FindUncountedTicksParams>(
  'feedsync_find_uncounted_ticks_v1',
  `select distinct r.tick_id from sync_runs r
   where not r.tick_counted and r.tick_id is not null and r.status in ('succeeded', 'partial', 'failed')
     and r.updated_at < now() - make_interval(secs => :idleForMs::int / 1000.0)
   limit :limit::int`,
);
