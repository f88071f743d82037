import { NamedStatement } from '../../database/NamedStatement.js';
import { RUN_COLUMNS } from '../../runs/runState.js';

export interface FindRunningReplaysParams {
  /** The replay's tick key up to its generation: `replay/<job>/<selection digest>/`. */
  tickKeyPrefix: string;
}

/** The unfinished runs of a replay tick of this selection still running, to resume after a crash. */
export const findRunningReplays = new NamedStatement<FindRunningReplaysParams>(
  'feedsync_find_running_replays_v3',
  `select ${RUN_COLUMNS.split(', ').map((column) => `r.${column}`).join(', ')}
    from job_ticks t join sync_runs r on r.tick_id = t.id
    where t.tick_key like :tickKeyPrefix::text || '%' and t.status = 'running' and r.status not in ('succeeded', 'partial', 'failed')
    order by r.query_index`,
);
