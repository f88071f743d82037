import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { migrateDatabase, openStorage, type Storage } from '../../src/storage/database/database.js';

export interface TestDatabase extends Storage {
  url: string;
  /** Closes the pool and drops the database. */
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database of its own, so test files running in parallel never meet: a clone of
 * the test run's migrated template, or, given `migrationsFolder` (an older schema, to test an
 * upgrade), an empty database migrated from it.
 */
export async function createTestDatabase(migrationsFolder?: string): Promise<TestDatabase> {
  const serverUrl = new URL(inject('databaseUrl'));
  const name = `feedsync_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl.href });
  await admin.connect();
  await admin.query(migrationsFolder === undefined ? `CREATE DATABASE ${name} TEMPLATE ${inject('templateDatabase')}` : `CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl.href);
  url.pathname = `/${name}`;
  if (migrationsFolder !== undefined) await migrateDatabase(url.href, migrationsFolder);
  const storage = openStorage(url.href);
  return {
    ...storage,
    url: url.href,
    async drop() {
      await storage.close();
      const client = new pg.Client({ connectionString: serverUrl.href });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
