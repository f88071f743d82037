-- feedsync_find_idle_runs_v4: findIdleRuns in src/storage/runs/statements/findIdleRuns.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :idleForMs
--   $2 :changedWithinMs
--   $3 :runKeyPatterns
--   $4 :limit
select id, run_key, job, source, query_index, query_key, query, tick_id, fan_value, attempt, crashes, status, checkpoint, pages, records_new, records_updated, records_unchanged, records_skipped, records_collapsed, nul_chars_removed, records_filtered, records_deleted, warnings, cursor_value, started_at, finished_at, error_kind, error, xmin::text as version, scheduled_for from sync_runs
    where status in ('queued', 'running', 'interrupted', 'retrying')
      and updated_at < now() - make_interval(secs => $1::double precision / 1000)
      and updated_at > now() - make_interval(secs => $2::double precision / 1000)
      and run_key like any($3::text[])
    order by updated_at
    limit $4::int
