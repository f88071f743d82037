-- feedsync_try_in_process_tick_v1: tryInProcessTick in src/storage/ticks/statements/tryInProcessTick.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :tickId
select pg_try_advisory_lock(7346112, hashtext($1::text)) as taken
