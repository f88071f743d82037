-- feedsync_find_run_by_key_v2: findRunByKey in src/storage/runs/statements/findRunByKey.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :runKey
select id, run_key, job, source, query_index, query_key, query, tick_id, fan_value, attempt, crashes, status, checkpoint, pages, records_new, records_updated, records_unchanged, records_skipped, records_collapsed, nul_chars_removed, records_filtered, records_deleted, warnings, cursor_value, started_at, finished_at, error_kind, error, xmin::text as version from sync_runs where run_key = $1::text
