-- feedsync_end_ticks_v1: endTicks in src/storage/ticks/statements/endTicks.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :tickIds
--   $2 :statuses
update job_ticks t set status = e.status, finished_at = greatest(now(), t.started_at)
    from unnest($1::uuid[], $2::text[]) as e(id, status)
    where t.id = e.id and t.status = 'running'
    returning t.id, t.tick_key, t.job, t.trigger, t.scheduled_for, t.status, t.runs_total, t.runs_done, t.runs_succeeded, t.runs_partial, t.runs_failed, t.runs_skipped, t.records_new, t.records_updated, t.records_unchanged, t.records_skipped, t.error, t.started_at, t.finished_at
