import { NamedStatement } from '../../database/NamedStatement.js';
import { TICK_COLUMNS } from '../tickState.js';

export interface EndTicksParams {
  tickIds: string[];
  statuses: string[];
}

/** Ends ticks that every run has ended, with how they went; returns those it ended. */
export const endTicks = new NamedStatement<EndTicksParams>(
  'feedsync_end_ticks_v1',
  `update job_ticks t set status = e.status, finished_at = greatest(now(), t.started_at)
    from unnest(:tickIds::uuid[], :statuses::text[]) as e(id, status)
    where t.id = e.id and t.status = 'running'
    returning ${TICK_COLUMNS.split(', ').map((column) => `t.${column}`).join(', ')}`,
);
