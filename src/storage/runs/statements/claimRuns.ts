import { NamedStatement } from '../../database/NamedStatement.js';
import { CHANGE_HORIZON } from '../../records/statements/readChangeHorizon.js';
import { RUN_COLUMNS, type RunRow } from '../runState.js';

/** A batch of runs to claim, one array per column, one element per run. */
export interface ClaimRunsParams {
  /** Null: generate one. */
  ids: (string | null)[];
  runKeys: string[];
  jobs: string[];
  sources: string[];
  queryIndexes: number[];
  queryKeys: string[];
  /** Each run's query as JSON. */
  queries: string[];
  scheduledFors: (Date | null)[];
  tickIds: (string | null)[];
  values: (string | null)[];
  /** The OpenTelemetry trace of this attempt; null: none recorded, and the run keeps the one it had. */
  traceIds: (string | null)[];
}

/** The columns of a run's identity alone, which a tick's queued runs are inserted with (insertTickRuns). */
export type RunIdentityColumns = Omit<ClaimRunsParams, 'traceIds'>;

/** A run as claimRuns returns it, with the database's clock and the change feed's horizon (see readChangeHorizon) at the claim. */
export type ClaimedRunRow = RunRow & { now: Date; change_horizon: string };

/**
 * Inserts each run, or takes it up: a run queued with its tick starts (attempt 1, started now);
 * one that ran before goes on (attempt + 1) unless it ended (succeeded, partial, or failed for
 * good). A run found `running` was left so by a holder that never recorded stopping (killed, or
 * its queue job lost): that is one more crash, counted here in the run's row, whatever the queue
 * remembers (a Redis that lost its data starts its count again). Returns the rows it wrote; a run
 * that ended is not returned. Each row carries the change horizon, so that the run's first page
 * need not read one (see ChangeHorizons).
 */
export const claimRuns = new NamedStatement<ClaimRunsParams>(
  'feedsync_claims_v11',
  `with ${CHANGE_HORIZON}
    insert into sync_runs as s (id, run_key, job, source, query_index, query_key, query, scheduled_for, tick_id, fan_value, trace_id)
    select coalesce(id, gen_random_uuid()), run_key, job, source, query_index, query_key, query, scheduled_for, tick_id, fan_value, trace_id
    from unnest(:ids::uuid[], :runKeys::text[], :jobs::text[], :sources::text[], :queryIndexes::int[], :queryKeys::text[], :queries::jsonb[], :scheduledFors::timestamptz[],
        :tickIds::uuid[], :values::text[], :traceIds::text[])
      as t(id, run_key, job, source, query_index, query_key, query, scheduled_for, tick_id, fan_value, trace_id)
    -- One order for every process, so that two batches never wait on each other's keys in a cycle.
    order by run_key
    on conflict (run_key) do update
      set attempt = case when s.status = 'queued' then s.attempt else s.attempt + 1 end,
        started_at = case when s.status = 'queued' then now() else s.started_at end,
        crashes = s.crashes + (s.status = 'running')::int, status = 'running', finished_at = null, error = null, error_kind = null, updated_at = now(),
        trace_id = coalesce(excluded.trace_id, s.trace_id)
      where s.status not in ('succeeded', 'partial', 'failed')
    returning ${RUN_COLUMNS}, now() as now, (select horizon from change_horizon) as change_horizon`,
);
