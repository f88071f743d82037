-- feedsync_take_versions_lock_v1: takeVersionsLock in src/storage/pages/statements/takeVersionsLock.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :source
--   $2 :kind
select pg_advisory_xact_lock(734611, hashtext($1::text || '/' || $2::text))
