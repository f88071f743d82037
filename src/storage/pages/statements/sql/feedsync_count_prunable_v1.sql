-- feedsync_count_prunable_v1: countPrunable in src/storage/pages/statements/countPrunable.ts
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
    gone as (select e.id, e.content_hash from envelopes e join doomed d on d.id = e.run_id),
    orphaned as (
      select b.content_hash, b.bytes from page_bodies b
      where b.content_hash in (select content_hash from gone)
        and not exists (select 1 from envelopes e where e.content_hash = b.content_hash and e.id not in (select id from gone))
    )
    select (select count(*)::int from doomed) as runs, (select count(*)::int from gone) as envelopes,
      (select count(*)::int from orphaned) as bodies, (select coalesce(sum(bytes), 0)::text from orphaned) as bytes
