-- feedsync_history_last_ticks_v1: readLastTicks in src/history/statements/readLastTicks.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :jobs
select j.job as config_job, s.scheduled_for as last_scheduled_for, t.id, t.tick_key, t.job, t.trigger, t.scheduled_for, t.status, t.runs_total, t.runs_done, t.runs_succeeded, t.runs_partial, t.runs_failed, t.runs_skipped, t.records_new, t.records_updated, t.records_unchanged, t.records_skipped, t.error, t.started_at, t.finished_at
    from unnest($1::text[]) as j(job)
    left join lateral (select * from job_ticks where job = j.job order by started_at desc limit 1) t on true
    left join lateral (select scheduled_for from job_ticks where job = j.job and trigger = 'schedule' order by started_at desc limit 1) s on true
