-- feedsync_read_recent_ticks_v1: readRecentTicks in src/storage/ticks/statements/readRecentTicks.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :limit
select t.id, t.tick_key, t.job, t.trigger, t.scheduled_for, t.status, t.runs_total, t.runs_done, t.runs_succeeded, t.runs_partial, t.runs_failed,
      t.runs_skipped, t.records_new, t.records_updated, t.records_unchanged, t.records_skipped, t.error, t.started_at, t.finished_at, n.state as notice
    from job_ticks t left join notices n on n.tick_id = t.id
    order by t.started_at desc
    limit $1::int
