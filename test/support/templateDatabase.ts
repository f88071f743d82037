import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrateDatabase } from '../../src/storage/database/database.js';

/** Runs one statement on the database of `databaseUrl`: CREATE and DROP DATABASE must run in another database than the one they name. */
export async function adminQuery(databaseUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Makes a database with every migration applied on the server of `databaseUrl`, for test
 * databases to be cloned from (cheaper than migrating each); its name. Named for the caller alone:
 * two test runs against one server never share one.
 */
export async function createTemplateDatabase(databaseUrl: string): Promise<string> {
  const name = `feedsync_template_${randomBytes(6).toString('hex')}`;
  await adminQuery(databaseUrl, `CREATE DATABASE ${name}`);
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  await migrateDatabase(url.href);
  return name;
}
