-- feedsync_history_job_ticks_v1: readJobTicks in src/history/statements/readJobTicks.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :job
--   $2 :limit
select id, tick_key, job, trigger, scheduled_for, status, runs_total, runs_done, runs_succeeded, runs_partial, runs_failed, runs_skipped, records_new, records_updated, records_unchanged, records_skipped, error, started_at, finished_at from job_ticks where job = $1::text order by started_at desc limit $2::int
