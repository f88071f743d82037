-- feedsync_find_unfinished_queries_v1: findUnfinishedQueries in src/storage/runs/statements/findUnfinishedQueries.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :job
--   $2 :queryKeys
--   $3 :staleAfterMs
select distinct query_key from sync_runs
    where job = $1::text and query_key = any($2::text[]) and status in ('queued', 'running', 'interrupted', 'retrying')
      and updated_at > now() - make_interval(secs => $3::double precision / 1000)
