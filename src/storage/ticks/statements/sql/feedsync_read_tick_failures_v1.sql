-- feedsync_read_tick_failures_v1: readTickFailures in src/storage/ticks/statements/readTickFailures.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :tickId
--   $2 :limit
select id, query_index, fan_value, query->>'q' as q, error_kind, error from sync_runs
    where tick_id = $1::uuid and status = 'failed'
    order by started_at, id
    limit $2::int
