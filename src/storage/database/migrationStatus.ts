import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type pg from 'pg';
import { MIGRATIONS_FOLDER } from './database.js';
import { countAppliedMigrations } from './statements/countAppliedMigrations.js';
import { findMigrationsTable } from './statements/findMigrationsTable.js';

export interface MigrationStatus {
  applied: number;
  expected: number;
}

/** How many of the bundled migrations the database has applied (Drizzle's own bookkeeping table). */
export async function migrationStatus(pool: pg.Pool): Promise<MigrationStatus> {
  const journal = JSON.parse(await readFile(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
  const table = await pool.query<{ exists: boolean }>(findMigrationsTable.with({}));
  const applied = table.rows[0]?.exists ? Number((await pool.query<{ n: string }>(countAppliedMigrations.with({}))).rows[0]?.n ?? 0) : 0;
  return { applied, expected: journal.entries.length };
}
