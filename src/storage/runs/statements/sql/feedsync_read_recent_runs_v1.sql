-- feedsync_read_recent_runs_v1: readRecentRuns in src/storage/runs/statements/readRecentRuns.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :limit
select r.id, r.job, r.query_index, r.fan_value, r.status, r.attempt, r.pages, r.records_new, r.records_updated, r.records_unchanged,
      r.started_at, r.finished_at, r.error_kind, r.error, n.state as notice
    from sync_runs r left join notices n on n.run_id = r.id
    order by r.started_at desc
    limit $1::int
