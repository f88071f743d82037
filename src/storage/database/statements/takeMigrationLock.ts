import { NamedStatement } from '../NamedStatement.js';

/** Waits for, then takes, the session-level advisory lock that migrators take turns on (see migrateDatabase). */
export const takeMigrationLock = new NamedStatement<{ lock: number }>('feedsync_take_migration_lock_v1', 'select pg_advisory_lock(:lock::bigint)');
