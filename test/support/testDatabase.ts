import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { migrateDatabase, openStorage, type Storage } from '../../src/storage/database/database.js';
import { adminQuery } from './templateDatabase.js';

export interface TestDatabase extends Storage {
  url: string;
  /** Closes the pool and drops the database. */
  drop(): Promise<void>;
}

/** A Postgres server and the migrated database that its test databases are cloned from. */
export interface DatabaseServer {
  url: string;
  templateDatabase: string;
}

/** The test run's server, which the global setup started and migrated a template on. */
const testRunServer = (): DatabaseServer => ({ url: inject('databaseUrl'), templateDatabase: inject('templateDatabase') });

/**
 * A fresh, migrated database of its own, so test files running in parallel never meet: a clone of
 * the server's migrated template (the test run's, unless `server` names another), or, given
 * `migrationsFolder` (an older schema, to test an upgrade), an empty database migrated from it.
 */
export async function createTestDatabase(migrationsFolder?: string, server: DatabaseServer = testRunServer()): Promise<TestDatabase> {
  const name = `feedsync_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(server.url, migrationsFolder === undefined ? `CREATE DATABASE ${name} TEMPLATE ${server.templateDatabase}` : `CREATE DATABASE ${name}`);
  const url = new URL(server.url);
  url.pathname = `/${name}`;
  if (migrationsFolder !== undefined) await migrateDatabase(url.href, migrationsFolder);
  const storage = openStorage(url.href);
  return {
    ...storage,
    url: url.href,
    async drop() {
      await storage.close();
      await adminQuery(server.url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
