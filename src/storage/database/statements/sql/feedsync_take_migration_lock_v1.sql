-- feedsync_take_migration_lock_v1: takeMigrationLock in src/storage/database/statements/takeMigrationLock.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :lock
select pg_advisory_lock($1::bigint)
