import { NamedStatement } from '../../database/NamedStatement.js';

export interface ReadTickFailuresParams {
  tickId: string;
  limit: number;
}

export interface TickFailureRow {
  id: string;
  query_index: number;
  fan_value: string | null;
  q: string | null;
  error_kind: string | null;
  error: string | null;
}

/** The first :limit failed runs of a tick, in the order they started. */
export const readTickFailures = new NamedStatement<ReadTickFailuresParams>(
  'feedsync_read_tick_failures_v1',
  `select id, query_index, fan_value, query->>'q' as q, error_kind, error from sync_runs
    where tick_id = :tickId::uuid and status = 'failed'
    order by started_at, id
    limit :limit::int`,
);
