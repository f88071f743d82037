-- feedsync_find_uncounted_ticks_v1: findUncountedTicks in src/storage/ticks/statements/findUncountedTicks.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :idleForMs
--   $2 :limit
select distinct r.tick_id from sync_runs r
   where not r.tick_counted and r.tick_id is not null and r.status in ('succeeded', 'partial', 'failed')
     and r.updated_at < now() - make_interval(secs => $1::int / 1000.0)
   limit $2::int
