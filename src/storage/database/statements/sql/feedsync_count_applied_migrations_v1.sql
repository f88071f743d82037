-- feedsync_count_applied_migrations_v1: countAppliedMigrations in src/storage/database/statements/countAppliedMigrations.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- no parameters
select count(*) as n from drizzle.__drizzle_migrations
