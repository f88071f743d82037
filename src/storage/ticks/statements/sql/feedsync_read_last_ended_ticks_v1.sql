-- feedsync_read_last_ended_ticks_v1: readLastEndedTicks in src/storage/ticks/statements/readLastEndedTicks.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :jobs
select j.job, e.status as last_status, s.scheduled_for as last_scheduled_for
    from unnest($1::text[]) as j(job)
    left join lateral (select status from job_ticks where job = j.job and status <> 'running' order by started_at desc limit 1) e on true
    left join lateral (select scheduled_for from job_ticks where job = j.job and trigger = 'schedule' order by started_at desc limit 1) s on true
