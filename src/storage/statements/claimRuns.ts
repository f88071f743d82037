import { NamedStatement } from '../namedStatement.js';
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
}

/** A run as claimRuns returns it, with the database's clock at the claim. */
export type ClaimedRunRow = RunRow & { now: Date };

/**
 * Inserts each run, or takes it up again (attempt + 1) unless it succeeded; returns the rows it
 * wrote. A run that succeeded is not returned.
 */
export const claimRuns = new NamedStatement<ClaimRunsParams>(
  'feedsync_claims_v3',
  `insert into sync_runs as s (id, run_key, job, source, query_index, query_key, query, scheduled_for)
    select coalesce(id, gen_random_uuid()), run_key, job, source, query_index, query_key, query, scheduled_for
    from unnest(:ids::uuid[], :runKeys::text[], :jobs::text[], :sources::text[], :queryIndexes::int[], :queryKeys::text[], :queries::jsonb[], :scheduledFors::timestamptz[])
      as t(id, run_key, job, source, query_index, query_key, query, scheduled_for)
    -- One order for every process, so that two batches never wait on each other's keys in a cycle.
    order by run_key
    on conflict (run_key) do update
      set attempt = s.attempt + 1, status = 'running', finished_at = null, error = null, error_kind = null, updated_at = now()
      where s.status <> 'succeeded'
    returning ${RUN_COLUMNS}, now() as now`,
);
