import type pg from 'pg';
import type { KindColumn } from '../config/analytics/kindsSchema.js';
import { inferColumns } from './inferKind.js';
import { readRecordLeaves, type RecordLeafRow } from './statements/readRecordLeaves.js';

/** What inference read, and the columns it found. */
export interface InferredKind {
  records: number;
  columns: Record<string, KindColumn>;
}

/** Infers a kind's columns from its latest `sample` stored records (of `source`, if given). */
export async function inferKind(pool: Pick<pg.Pool, 'query'>, kind: string, options: { source?: string; sample: number }): Promise<InferredKind> {
  const { rows } = await pool.query<RecordLeafRow>(readRecordLeaves.with({ kind, source: options.source ?? null, sample: options.sample }));
  return { records: new Set(rows.map((row) => row.record)).size, columns: inferColumns(rows) };
}
