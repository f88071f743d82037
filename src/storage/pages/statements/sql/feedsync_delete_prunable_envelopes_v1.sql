-- feedsync_delete_prunable_envelopes_v1: deletePrunableEnvelopes in src/storage/pages/statements/deletePrunableEnvelopes.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :job
--   $2 :maxAgeDays
--   $3 :keepLastRuns
--   $4 :runs
with doomed as (
      select r.id from sync_runs r
      where r.job = $1::text and r.status = 'succeeded'
        and ($2::int is null or r.finished_at < now() - make_interval(days => $2::int))
        and ($3::int is null or (
          select count(*) from sync_runs n
          where n.job = r.job and n.query_key = r.query_key and n.status = 'succeeded' and (n.started_at, n.id) > (r.started_at, r.id)
        ) >= $3::int)
        and exists (select 1 from envelopes e where e.run_id = r.id)
      order by r.started_at
      limit $4::int
    ),
    deleted as (delete from envelopes e using doomed d where e.run_id = d.id returning e.bytes)
    select count(*)::int as envelopes, coalesce(sum(bytes), 0)::text as bytes from deleted
