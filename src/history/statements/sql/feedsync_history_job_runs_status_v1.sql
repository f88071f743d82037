-- feedsync_history_job_runs_status_v1: readJobRunsWithStatus in src/history/statements/readJobRunsWithStatus.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :job
--   $2 :status
--   $3 :limit
--   $4 :offset
select id, query_index, fan_value, status, attempt, crashes, pages, records_new, records_updated, records_unchanged, records_skipped, started_at, finished_at, error_kind, error from sync_runs where job = $1::text and status = $2::text order by started_at desc, id limit $3::int offset $4::int
