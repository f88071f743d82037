import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type pg from 'pg';
import { MIGRATIONS_FOLDER } from './database.js';

export interface MigrationStatus {
  applied: number;
  expected: number;
}

/** How many of the bundled migrations the database has applied (Drizzle's own bookkeeping table). */
export async function migrationStatus(pool: pg.Pool): Promise<MigrationStatus> {
  const journal = JSON.parse(await readFile(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
  const table = await pool.query<{ exists: boolean }>(`select to_regclass('drizzle.__drizzle_migrations') is not null as exists`);
  const applied = table.rows[0]?.exists ? Number((await pool.query<{ n: string }>('select count(*) as n from drizzle.__drizzle_migrations')).rows[0]?.n ?? 0) : 0;
  return { applied, expected: journal.entries.length };
}
