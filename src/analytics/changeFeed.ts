import type pg from 'pg';
import { ChangeHorizons } from '../storage/records/ChangeHorizons.js';
import { readChanges, type ChangeRow } from './statements/readChanges.js';

/** A change as a loader applies it: the record's state now (`upsert`), or its deletion. */
export interface RecordChange {
  changeSeq: string;
  op: 'upsert' | 'delete';
  source: string;
  key: string;
  /** The payload's JSON text, numbers as stored. */
  payload: string;
  changedAt: Date;
  deletedAt: Date | null;
}

export interface ChangeFeedOptions {
  kind: string;
  source?: string;
  /** The last change_seq the reader has: it gets those after it. */
  since: bigint;
  /** Rows read per statement. */
  batchSize?: number;
}

/**
 * The change feed of a kind: every record inserted, changed or deleted since a position, in
 * change_seq order, read in keyset batches, each below the change horizon read just before it
 * (see ChangeHorizons): so a batch never passes over a number whose transaction has not
 * ended, and the next position never skips a change that commits later. A record changed twice
 * since the position appears once, at its latest change. A change in a transaction still in
 * flight, and every number above its ticket, waits for the next read.
 */
export async function* readChangeFeed(pool: Pick<pg.Pool, 'query'>, options: ChangeFeedOptions): AsyncGenerator<RecordChange> {
  let after = options.since.toString();
  const limit = options.batchSize ?? 1_000;
  const horizons = new ChangeHorizons(pool);
  for (;;) {
    const horizon = await horizons.read();
    const { rows } = await pool.query<ChangeRow>(readChanges.with({ kind: options.kind, source: options.source ?? null, after, horizon, limit }));
    for (const row of rows) yield changeOf(row);
    if (rows.length < limit) return;
    after = rows[rows.length - 1]!.change_seq;
  }
}

function changeOf(row: ChangeRow): RecordChange {
  return {
    changeSeq: row.change_seq,
    op: row.deleted_at === null ? 'upsert' : 'delete',
    source: row.source,
    key: row.key,
    payload: row.payload,
    changedAt: row.changed_at,
    deletedAt: row.deleted_at,
  };
}
