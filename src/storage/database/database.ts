import { fileURLToPath } from 'node:url';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from '../tables/schema.js';
import { applySessionSettings } from './statements/applySessionSettings.js';
import { releaseMigrationLock } from './statements/releaseMigrationLock.js';
import { takeMigrationLock } from './statements/takeMigrationLock.js';

export type Database = NodePgDatabase<typeof schema>;

/** The connection pool and the Drizzle handle over it. */
export interface Storage {
  pool: pg.Pool;
  db: Database;
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../../migrations', import.meta.url));

/** An arbitrary constant: only feedsync's migrator takes this advisory lock. */
export const MIGRATION_LOCK = 7_346_112_001;

/**
 * Connections a worker's pool holds beyond one for each run it may run at once: for what runs
 * beside them (notice drains, the reconciler).
 */
export const CONNECTIONS_BESIDE_RUNS = 4;

export function openStorage(databaseUrl: string, options: { max?: number } = {}): Storage {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: options.max ?? 10,
    application_name: 'feedsync',
    connectionTimeoutMillis: 10_000,
    // pg-pool awaits this before handing the connection out (and fails the checkout if it throws); @types/pg types it as returning void.
    // eslint-disable-next-line @typescript-eslint/no-misused-promises
    onConnect: async (client) => {
      await client.query(applySessionSettings.with({}));
    },
  });
  // An idle client losing its server (Postgres restart) must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  const db = drizzle(pool, { schema });
  return { pool, db, close: () => pool.end() };
}

/**
 * The pg pool under a Drizzle handle, for statements kept as explicit SQL and prepared once per
 * connection (named): the hot paths, where Drizzle's query building and Postgres's re-planning
 * of unnamed statements cost more than the statement itself.
 */
export function poolOf(db: Database): pg.Pool {
  const client = (db as Database & { $client?: unknown }).$client;
  if (!(client instanceof pg.Pool)) throw new Error('a Drizzle database over a pg Pool is needed');
  return client;
}

/** Applies pending migrations; an advisory lock makes workers starting together take turns. */
export async function migrateDatabase(databaseUrl: string, migrationsFolder = MIGRATIONS_FOLDER): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'feedsync-migrate' });
  // A connection lost mid-migration fails the statement under way; heard, it is not also thrown as an uncaught 'error'.
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query(takeMigrationLock.with({ lock: MIGRATION_LOCK }));
    await migrate(drizzle(client), { migrationsFolder });
  } finally {
    await client.query(releaseMigrationLock.with({ lock: MIGRATION_LOCK })).catch(() => undefined);
    await client.end();
  }
}
