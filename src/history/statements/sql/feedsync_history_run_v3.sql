-- feedsync_history_run_v3: readRun in src/history/statements/readRun.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :runId
select r.id, r.run_key, r.job, r.source, r.query_index, r.query, r.fan_value, r.tick_id, r.status, r.attempt, r.crashes, r.pages,
      r.records_new, r.records_updated, r.records_unchanged, r.records_skipped, r.scheduled_for, r.started_at, r.finished_at, r.stop_reason, r.error_kind, r.error, r.warnings, r.trace_id,
      n.id as notice_id, n.tick_id is not null as notice_for_tick, n.type as notice_type, n.state as notice_state, n.attempts as notice_attempts, n.created_at as notice_created_at,
      n.delivered_at as notice_delivered_at, n.last_error as notice_last_error
    from sync_runs r
    left join lateral (
      select * from notices where run_id = r.id or tick_id = r.tick_id order by run_id is null limit 1
    ) n on true
    where r.id = $1::uuid
