-- feedsync_finish_read_v4: readRunToFinish in src/storage/runs/statements/readRunToFinish.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :runId
select id, run_key, job, source, query_index, query_key, query, tick_id, fan_value, attempt, crashes, status, checkpoint, pages, records_new, records_updated, records_unchanged, records_skipped, records_collapsed, nul_chars_removed, records_filtered, records_deleted, warnings, cursor_value, started_at, finished_at, error_kind, error, xmin::text as version, now() as now from sync_runs where id = $1::uuid
