-- feedsync_sweep_full_refresh_v5: sweepFullRefresh in src/storage/records/statements/sweepFullRefresh.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :scope
--   $2 :runId
with change_ticket as materialized (select pg_advisory_xact_lock(-nextval('records_change_seq') - 1)),
    gone as (
      delete from full_refresh_keys f using change_ticket
      where f.scope = $1::text and f.run_id <> $2::uuid
      returning f.source, f.kind, f.key
    ),
    deleted as (
      update records r
      set deleted_at = now(), changed_at = now(), change_seq = nextval('records_change_seq'), last_changed_run_id = $2::uuid
      from gone
      where r.key_digest = feedsync_key_digest(gone.source, gone.key) and r.kind = gone.kind and r.source = gone.source and r.key = gone.key and r.deleted_at is null
      returning 1
    ),
    counted as (
      update sync_runs set records_deleted = records_deleted + (select count(*) from deleted)::int where id = $2::uuid
      returning records_deleted, xmin::text as version
    )
    select (select count(*) from deleted)::int as deleted, (select records_deleted from counted) as records_deleted, (select version from counted) as version
