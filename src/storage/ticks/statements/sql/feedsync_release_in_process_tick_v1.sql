-- feedsync_release_in_process_tick_v1: releaseInProcessTick in src/storage/ticks/statements/releaseInProcessTick.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :tickId
select pg_advisory_unlock(7346112, hashtext($1::text))
