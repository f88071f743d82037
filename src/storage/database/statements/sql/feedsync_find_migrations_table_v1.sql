-- feedsync_find_migrations_table_v1: findMigrationsTable in src/storage/database/statements/findMigrationsTable.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- no parameters
select to_regclass('drizzle.__drizzle_migrations') is not null as exists
