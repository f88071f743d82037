-- feedsync_claims_v8: claimRuns in src/storage/runs/statements/claimRuns.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :ids
--   $2 :runKeys
--   $3 :jobs
--   $4 :sources
--   $5 :queryIndexes
--   $6 :queryKeys
--   $7 :queries
--   $8 :scheduledFors
--   $9 :tickIds
--   $10 :values
insert into sync_runs as s (id, run_key, job, source, query_index, query_key, query, scheduled_for, tick_id, fan_value)
    select coalesce(id, gen_random_uuid()), run_key, job, source, query_index, query_key, query, scheduled_for, tick_id, fan_value
    from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::int[], $6::text[], $7::jsonb[], $8::timestamptz[],
        $9::uuid[], $10::text[])
      as t(id, run_key, job, source, query_index, query_key, query, scheduled_for, tick_id, fan_value)
    -- One order for every process, so that two batches never wait on each other's keys in a cycle.
    order by run_key
    on conflict (run_key) do update
      set attempt = case when s.status = 'queued' then s.attempt else s.attempt + 1 end,
        started_at = case when s.status = 'queued' then now() else s.started_at end,
        crashes = s.crashes + (s.status = 'running')::int, status = 'running', finished_at = null, error = null, error_kind = null, updated_at = now()
      where s.status not in ('succeeded', 'partial', 'failed')
    returning id, run_key, job, source, query_index, query_key, query, tick_id, fan_value, attempt, crashes, status, checkpoint, pages, records_new, records_updated, records_unchanged, records_skipped, records_collapsed, nul_chars_removed, records_filtered, records_deleted, cursor_value, started_at, finished_at, error_kind, error, xmin::text as version, now() as now
