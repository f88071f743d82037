-- feedsync_insert_tick_runs_v1: insertTickRuns in src/storage/ticks/statements/insertTickRuns.ts
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
insert into sync_runs (id, run_key, job, source, query_index, query_key, query, scheduled_for, tick_id, fan_value, status)
    select coalesce(id, gen_random_uuid()), run_key, job, source, query_index, query_key, query, scheduled_for, tick_id, fan_value, 'queued'
    from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::int[], $6::text[], $7::jsonb[], $8::timestamptz[],
        $9::uuid[], $10::text[])
      as t(id, run_key, job, source, query_index, query_key, query, scheduled_for, tick_id, fan_value)
    order by run_key
    on conflict (run_key) do nothing
    returning id, run_key
