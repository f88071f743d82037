-- feedsync_insert_tick_v2: insertTick in src/storage/ticks/statements/insertTick.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :id
--   $2 :tickKey
--   $3 :job
--   $4 :trigger
--   $5 :scheduledFor
--   $6 :runsTotal
--   $7 :runsSkipped
--   $8 :error
--   $9 :traceparent
insert into job_ticks (id, tick_key, job, trigger, scheduled_for, runs_total, runs_done, runs_skipped, error, traceparent)
    values ($1::uuid, $2::text, $3::text, $4::text, $5::timestamptz, $6::int, $7::int, $7::int, $8::text, $9::text)
    on conflict (tick_key) do nothing
    returning id, tick_key, job, trigger, scheduled_for, status, runs_total, runs_done, runs_succeeded, runs_partial, runs_failed, runs_skipped, records_new, records_updated, records_unchanged, records_skipped, error, started_at, finished_at
