import { NamedStatement } from '../NamedStatement.js';

/** Gives back the migration lock (see takeMigrationLock). */
export const releaseMigrationLock = new NamedStatement<{ lock: number }>('feedsync_release_migration_lock_v1', 'select pg_advisory_unlock(:lock::bigint)');
