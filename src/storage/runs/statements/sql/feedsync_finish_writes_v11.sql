-- feedsync_finish_writes_v11: finishRuns in src/storage/runs/statements/finishRuns.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :runIds
--   $2 :versions
--   $3 :statuses
--   $4 :finishedAts
--   $5 :stopReasons
--   $6 :errorKinds
--   $7 :errors
--   $8 :cursorFields
--   $9 :cursorValues
--   $10 :noticeIds
--   $11 :noticeTypes
--   $12 :noticeBodies
--   $13 :noticeTraceparents
--   $14 :crashes
with outcome as (
      select * from unnest($1::uuid[], $2::text[], $3::text[], $4::timestamptz[], $5::text[], $6::text[],
          $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::int[])
        as t(id, version, status, finished_at, stop_reason, error_kind, error, cursor_field, cursor_value, notice_id, notice_type, notice_body, notice_traceparent, crashes)
    ),
    run as (
      update sync_runs s
      set status = o.status, finished_at = case when o.status in ('interrupted', 'retrying') then null else greatest(o.finished_at, s.started_at) end, stop_reason = o.stop_reason, error_kind = o.error_kind, error = o.error,
        crashes = greatest(s.crashes, coalesce(o.crashes, 0)), updated_at = now()
      from outcome o
      -- An ended run stays as it ended, whoever finishes it late.
      where s.id = o.id and s.xmin::text = o.version and s.status not in ('succeeded', 'partial', 'failed')
      returning s.id, s.job, s.query_key, s.tick_id, s.status, s.records_new, s.records_updated, s.records_unchanged, s.records_skipped
    ),
    cursor as (
      insert into incremental_cursors as c (job, query_key, field, value, run_id, updated_at)
      select r.job, r.query_key, o.cursor_field, o.cursor_value, r.id, now() from run r join outcome o on o.id = r.id where o.cursor_field is not null
      order by r.job, r.query_key
      on conflict (job, query_key) do update set field = excluded.field, value = excluded.value, run_id = excluded.run_id, updated_at = excluded.updated_at
    ),
    notice as (
      insert into notices (id, run_id, type, body, traceparent)
      select o.notice_id, r.id, o.notice_type, o.notice_body, o.notice_traceparent from run r join outcome o on o.id = r.id where o.notice_id is not null
      on conflict do nothing
    )
    select id, tick_id, status, records_new, records_updated, records_unchanged, records_skipped from run
