-- feedsync_history_job_runs_v1: readJobRuns in src/history/statements/readJobRuns.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :job
--   $2 :limit
--   $3 :offset
select id, query_index, fan_value, status, attempt, crashes, pages, records_new, records_updated, records_unchanged, records_skipped, started_at, finished_at, error_kind, error from sync_runs where job = $1::text order by started_at desc, id limit $2::int offset $3::int
