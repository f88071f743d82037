-- feedsync_release_migration_lock_v1: releaseMigrationLock in src/storage/database/statements/releaseMigrationLock.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :lock
select pg_advisory_unlock($1::bigint)
