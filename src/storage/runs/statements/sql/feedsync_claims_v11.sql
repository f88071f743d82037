-- feedsync_claims_v11: claimRuns in src/storage/runs/statements/claimRuns.ts
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
--   $11 :traceIds
with drawn as materialized (
      select case when is_called then last_value + 1 else last_value end as next from records_change_seq
    ),
    change_horizon as (
      select least(drawn.next, held.oldest)::text as horizon
      from drawn cross join lateral (
        -- A bigint advisory key k shows as classid = k >> 32, objid = its low 32 bits; tickets are negative.
        select min(-(((l.classid::bigint << 32) | l.objid::bigint)) - 1) as oldest
        from pg_locks l
        where l.locktype = 'advisory' and l.objsubid = 1 and l.classid::bigint >= 2147483648 and drawn.next is not null
          and l.database = (select oid from pg_database where datname = current_database())
      ) held
    )
    insert into sync_runs as s (id, run_key, job, source, query_index, query_key, query, scheduled_for, tick_id, fan_value, trace_id)
    select coalesce(id, gen_random_uuid()), run_key, job, source, query_index, query_key, query, scheduled_for, tick_id, fan_value, trace_id
    from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::int[], $6::text[], $7::jsonb[], $8::timestamptz[],
        $9::uuid[], $10::text[], $11::text[])
      as t(id, run_key, job, source, query_index, query_key, query, scheduled_for, tick_id, fan_value, trace_id)
    -- One order for every process, so that two batches never wait on each other's keys in a cycle.
    order by run_key
    on conflict (run_key) do update
      set attempt = case when s.status = 'queued' then s.attempt else s.attempt + 1 end,
        started_at = case when s.status = 'queued' then now() else s.started_at end,
        crashes = s.crashes + (s.status = 'running')::int, status = 'running', finished_at = null, error = null, error_kind = null, updated_at = now(),
        trace_id = coalesce(excluded.trace_id, s.trace_id)
      where s.status not in ('succeeded', 'partial', 'failed')
    returning id, run_key, job, source, query_index, query_key, query, tick_id, fan_value, attempt, crashes, status, checkpoint, pages, records_new, records_updated, records_unchanged, records_skipped, records_collapsed, nul_chars_removed, records_filtered, records_deleted, warnings, cursor_value, started_at, finished_at, error_kind, error, xmin::text as version, now() as now, (select horizon from change_horizon) as change_horizon
