-- feedsync_read_run_idleness_v1: readRunIdleness in src/storage/runs/statements/readRunIdleness.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- no parameters
select job, status, extract(epoch from now() - min(updated_at))::float8 as idle_s
    from sync_runs
    where status in ('queued', 'running', 'interrupted', 'retrying')
    group by job, status
