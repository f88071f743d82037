-- feedsync_find_running_replays_v3: findRunningReplays in src/storage/pages/statements/findRunningReplays.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :tickKeyPrefix
select r.id, r.run_key, r.job, r.source, r.query_index, r.query_key, r.query, r.tick_id, r.fan_value, r.attempt, r.crashes, r.status, r.checkpoint, r.pages, r.records_new, r.records_updated, r.records_unchanged, r.records_skipped, r.records_collapsed, r.nul_chars_removed, r.records_filtered, r.records_deleted, r.warnings, r.cursor_value, r.started_at, r.finished_at, r.error_kind, r.error, r.xmin::text as version
    from job_ticks t join sync_runs r on r.tick_id = t.id
    where t.tick_key like $1::text || '%' and t.status = 'running' and r.status not in ('succeeded', 'partial', 'failed')
    order by r.query_index
