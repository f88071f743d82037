import { NamedStatement } from '../../database/NamedStatement.js';
import type { RunIdentityColumns } from '../../runs/statements/claimRuns.js';

/** A tick's runs are queued, not yet attempted: they have no trace of their own yet. */
export type InsertTickRunsParams = RunIdentityColumns;

/** Creates a tick's runs as queued, in one statement however many; returns each run's id and key. */
export const insertTickRuns = new NamedStatement<InsertTickRunsParams>(
  'feedsync_insert_tick_runs_v1',
  `insert into sync_runs (id, run_key, job, source, query_index, query_key, query, scheduled_for, tick_id, fan_value, status)
    select coalesce(id, gen_random_uuid()), run_key, job, source, query_index, query_key, query, scheduled_for, tick_id, fan_value, 'queued'
    from unnest(:ids::uuid[], :runKeys::text[], :jobs::text[], :sources::text[], :queryIndexes::int[], :queryKeys::text[], :queries::jsonb[], :scheduledFors::timestamptz[],
        :tickIds::uuid[], :values::text[])
      as t(id, run_key, job, source, query_index, query_key, query, scheduled_for, tick_id, fan_value)
    order by run_key
    on conflict (run_key) do nothing
    returning id, run_key`,
);
