import { NamedStatement } from '../NamedStatement.js';

/** Whether Drizzle's bookkeeping table exists: a database never migrated has none. */
export const findMigrationsTable = new NamedStatement<Record<string, never>>(
  'feedsync_find_migrations_table_v1',
  `select to_regclass('drizzle.__drizzle_migrations') is not null as exists`,
);
