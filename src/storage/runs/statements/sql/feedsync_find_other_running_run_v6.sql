-- feedsync_find_other_running_run_v6: findOtherRunningRun in src/storage/runs/statements/findOtherRunningRun.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :job
--   $2 :queryKey
--   $3 :runKey
--   $4 :queuedRunKeyPatterns
--   $5 :queuedStaleAfterMs
--   $6 :staleAfterMs
select o.id from sync_runs o
    where o.job = $1::text and o.query_key = $2::text and o.status in ('queued', 'running', 'interrupted', 'retrying') and o.run_key <> $3::text
      and case
        when o.status = 'queued' then o.run_key like any($4::text[])
          and o.updated_at > now() - make_interval(secs => $5::double precision / 1000)
          and (o.started_at, o.run_key) < (select m.started_at, m.run_key from sync_runs m where m.run_key = $3::text and m.status = 'queued')
        else o.updated_at > now() - make_interval(secs => $6::double precision / 1000)
      end
    limit 1
