import { NamedStatement } from '../NamedStatement.js';

/** How many migrations Drizzle's bookkeeping table records as applied; n: a bigint, as text. */
export const countAppliedMigrations = new NamedStatement<Record<string, never>>('feedsync_count_applied_migrations_v1', 'select count(*) as n from drizzle.__drizzle_migrations');
