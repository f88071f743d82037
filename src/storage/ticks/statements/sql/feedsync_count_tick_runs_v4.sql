-- feedsync_count_tick_runs_v4: countTickRuns in src/storage/ticks/statements/countTickRuns.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :tickIds
with commit_async as materialized (select set_config('synchronous_commit', 'off', true)),
    marked as (
      update sync_runs r set tick_counted = true
      from commit_async
      where r.tick_id = any($1::uuid[]) and not r.tick_counted and r.status in ('succeeded', 'partial', 'failed')
      returning r.tick_id, r.status, r.records_new, r.records_updated, r.records_unchanged, r.records_skipped
    ),
    ended as (
      select tick_id, count(*) filter (where status = 'succeeded')::int as succeeded, count(*) filter (where status = 'partial')::int as partial,
        count(*) filter (where status = 'failed')::int as failed, sum(records_new) as records_new, sum(records_updated) as records_updated,
        sum(records_unchanged) as records_unchanged, sum(records_skipped) as records_skipped
      from marked
      group by tick_id
    ),
    locked as (
      select t.id from job_ticks t where t.id in (select tick_id from ended) order by t.id for update of t
    ),
    counted as (
      update job_ticks t
      set runs_done = t.runs_done + e.succeeded + e.partial + e.failed, runs_succeeded = t.runs_succeeded + e.succeeded, runs_partial = t.runs_partial + e.partial,
        runs_failed = t.runs_failed + e.failed,
        records_new = t.records_new + e.records_new, records_updated = t.records_updated + e.records_updated, records_unchanged = t.records_unchanged + e.records_unchanged,
        records_skipped = t.records_skipped + e.records_skipped
      from ended e, locked l
      where t.id = e.tick_id and l.id = t.id
      returning t.*
    )
    select id, tick_key, job, trigger, scheduled_for, status, runs_total, runs_done, runs_succeeded, runs_partial, runs_failed, runs_skipped, records_new, records_updated, records_unchanged, records_skipped, error, started_at, finished_at from counted where status = 'running' and runs_done >= runs_total
