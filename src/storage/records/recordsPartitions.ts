import type pg from 'pg';
import { makeRecordsPartitions } from './statements/makeRecordsPartitions.js';

/**
 * Gives each kind a partition of `records` of its own, before any of its records is written here:
 * a kind's statements then touch its partition alone, whose indexes grow with that kind only.
 * Returns the kinds that had none. Sorted, so that two processes making the same take turns in
 * one order.
 */
export async function makeKindPartitions(pool: Pick<pg.Pool, 'query'>, kinds: Iterable<string>): Promise<string[]> {
  const wanted = [...new Set(kinds)].sort();
  if (wanted.length === 0) return [];
  const { rows } = await pool.query<{ kind: string }>(makeRecordsPartitions.with({ kinds: wanted }));
  return rows.map((row) => row.kind);
}
