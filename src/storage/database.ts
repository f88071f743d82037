import { fileURLToPath } from 'node:url';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
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

export function openStorage(databaseUrl: string, options: { max?: number } = {}): Storage {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: options.max ?? 10, application_name: 'feedsync', connectionTimeoutMillis: 10_000 });
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
