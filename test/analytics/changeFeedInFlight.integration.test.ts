import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readChangeFeed, type RecordChange } from '../../src/analytics/changeFeed.js';
import { takeChangeTicket } from '../../src/storage/records/statements/takeChangeTicket.js';
import { givenRunStore } from '../support/givenRunStore.js';
import { RECORDS_CONFLICT } from '../../src/storage/records/keyDigest.js';

const given = givenRunStore();

/** How many records a writer's transaction changes, of a key space all writers share. */
const KEYS = 60;
const PER_TRANSACTION = 5;

/**
 * A writer that draws change_seq values as every feedsync statement does (a ticket first), then
 * holds its transaction open for a while before it commits, or now and then rolls back: commits
 * then come in another order than the numbers were drawn.
 */
async function write(kind: string, transactions: number, committed: Map<string, bigint>): Promise<void> {
  const client = await given.database.pool.connect();
  try {
    for (let n = 0; n < transactions; n++) {
      await client.query('begin');
      await client.query(takeChangeTicket.with({}));
      const keys = Array.from({ length: PER_TRANSACTION }, () => `k${Math.floor(Math.random() * KEYS)}`);
      const { rows } = await client.query<{ key: string; change_seq: string }>(
        // As storePage writes: in key order (so that writers lock rows in one order), the number drawn
        // for the row proposed kept if it conflicts (after waiting for the row's writer).
        `insert into records (source, kind, key, payload, content_hash, first_seen_run_id, last_changed_run_id, change_seq)
         select 'music', $1, k, jsonb_build_object('v', $2::text), $2::text, $3::uuid, $3::uuid, nextval('records_change_seq')
         from (select distinct k from unnest($4::text[]) as k order by k) as keys
         on conflict ${RECORDS_CONFLICT} do update set payload = excluded.payload, content_hash = excluded.content_hash, change_seq = excluded.change_seq
         returning key, change_seq::text`,
        [kind, randomUUID(), randomUUID(), keys],
      );
      await client.query('select pg_sleep($1)', [Math.random() * 0.03]);
      if (Math.random() < 0.1) {
        await client.query('rollback');
        continue;
      }
      await client.query('commit');
      for (const row of rows) committed.set(row.key, BigInt(row.change_seq));
    }
  } finally {
    client.release();
  }
}

describe('the change feed while changes commit out of order', () => {
  it('misses no change and repeats none, in increasing change_seq, however long the transactions that drew lower numbers take to commit', async () => {
    const kind = `inflight${randomUUID().slice(0, 8)}`;
    const committed = new Map<string, bigint>();
    const read: RecordChange[] = [];
    let last = 0n;
    let writing = true;
    const writers = Promise.all(Array.from({ length: 6 }, () => write(kind, 25, committed))).finally(() => (writing = false));
    const readNew = async () => {
      for await (const change of readChangeFeed(given.database.pool, { kind, since: last, batchSize: 7 })) {
        read.push(change);
        last = BigInt(change.changeSeq);
      }
    };
    while (writing) await readNew();
    await writers;
    await readNew();

    const seqs = read.map((change) => BigInt(change.changeSeq));
    expect(seqs.every((seq, index) => index === 0 || seq > seqs[index - 1]!), 'read in increasing order, none twice').toBe(true);
    const lastRead = new Map(read.map((change) => [change.key, BigInt(change.changeSeq)]));
    const missed = [...committed].filter(([key, seq]) => lastRead.get(key) !== seq);
    expect(committed.size).toBeGreaterThan(KEYS / 2);
    expect(missed, 'every record read at its last committed change').toEqual([]);
  }, 60_000);
});
