-- feedsync_count_tick_runs_v3: countTickRuns in src/storage/ticks/statements/countTickRuns.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :tickIds
--   $2 :succeeded
--   $3 :partial
--   $4 :failed
--   $5 :recordsNew
--   $6 :recordsUpdated
--   $7 :recordsUnchanged
--   $8 :recordsSkipped
with ended as (
      select * from unnest($1::uuid[], $2::int[], $3::int[], $4::int[], $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[])
        as e(tick_id, succeeded, partial, failed, records_new, records_updated, records_unchanged, records_skipped)
    ),
    locked as (
      select t.id from job_ticks t where t.id in (select tick_id from ended) order by t.id for update
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
