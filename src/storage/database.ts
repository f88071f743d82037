import { fileURLToPath } from 'node:url';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { parseIntoClientConfig } from 'pg-connection-string';
import * as schema from './schema.js';

export type Database = NodePgDatabase<typeof schema>;

/** The connection pool and the Drizzle handle over it. */
export interface Storage {
  pool: pg.Pool;
  db: Database;
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../migrations', import.meta.url));

/** An arbitrary constant: only feedsync's migrator takes this advisory lock. */
const MIGRATION_LOCK = 7_346_112_001;

/**
 * Planner settings of feedsync's sessions, sent at connection start. Its statements look rows up
 * by key, a handful at a time, in tables whose hot pages are cached:
 * - `plan_cache_mode`: a generic plan serves every execution of a prepared statement. Left to
 *   itself, Postgres re-plans the batch statements on every call (a parameter array of unknown
 *   length makes the generic plan look dearer than a custom one), and planning cost more than
 *   running them.
 * - `random_page_cost`: the usual value for SSDs and cached data. At the default 4 a generic
 *   plan prefers a sequential scan of a table of a few thousand rows to a handful of index lookups.
 * Options in the database URL come after these, so a URL can override either.
 */
export const SESSION_OPTIONS = '-c plan_cache_mode=force_generic_plan -c random_page_cost=1.1';

export function openStorage(databaseUrl: string, options: { max?: number } = {}): Storage {
  const connection = parseIntoClientConfig(databaseUrl);
  const pool = new pg.Pool({
    application_name: 'feedsync',
    ...connection,
    options: connection.options ? `${SESSION_OPTIONS} ${connection.options}` : SESSION_OPTIONS,
    max: options.max ?? 10,
    connectionTimeoutMillis: 10_000,
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
export function poolOf(db: Database): Pick<pg.Pool, 'query'> {
  const client = (db as Database & { $client?: Partial<Pick<pg.Pool, 'query'>> }).$client;
  if (typeof client?.query !== 'function') throw new Error('a Drizzle database over a pg Pool or Client is needed');
  return client as Pick<pg.Pool, 'query'>;
}

/** Applies pending migrations; an advisory lock makes workers starting together take turns. */
export async function migrateDatabase(databaseUrl: string, migrationsFolder = MIGRATIONS_FOLDER): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'feedsync-migrate' });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migrate(drizzle(client), { migrationsFolder });
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await client.end();
  }
}
