-- feedsync_take_change_lock_v1: takeChangeLock in src/storage/pages/statements/takeChangeLock.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- no parameters
select pg_advisory_xact_lock(7346112004)
