import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readChangeFeed, type RecordChange } from '../../src/analytics/changeFeed.js';
import { pageWriteMode, refreshScopeOf } from '../../src/storage/pages/writeModes.js';
import { pageOf } from '../support/storedPages.js';
import { givenRunStore } from '../support/givenRunStore.js';

const given = givenRunStore();

const claim = (job: string) => given.store.claims.claim({ runKey: `${job}/${randomUUID()}`, job, source: 'music', queryIndex: 0, queryKey: 'k', query: { q: null, params: {} } });

/** A run storing `pages` pages of `perPage` records each, keys prefixed so that two runs never share one. */
async function writeRun(kind: string, prefix: string, pages: number, perPage: number, version: number): Promise<void> {
  const run = await claim(`feed-${prefix}`);
  for (let page = 0; page < pages; page++) {
    const items = Array.from({ length: perPage }, (_, index) => ({ id: `${prefix}-${page}-${index}`, version }));
    await given.store.pages.storePage(run.id, page, pageOf(kind, items, 'id'), 'music');
  }
}

async function readAll(kind: string, since: bigint): Promise<RecordChange[]> {
  const changes: RecordChange[] = [];
  for await (const change of readChangeFeed(given.database.pool, { kind, since, batchSize: 5_000 })) changes.push(change);
  return changes;
}

describe('the change feed', () => {
  it('misses and repeats no change while two runs write at once, a reader polling change_seq > $last throughout', async () => {
    const kind = `feed${randomUUID().slice(0, 8)}`;
    const read: RecordChange[] = [];
    let last = 0n;
    let writing = true;
    const writers = Promise.all(['a', 'b', 'c', 'd'].map((prefix) => writeRun(kind, prefix, 80, 75, 1))).finally(() => (writing = false));
    while (writing) {
      for (const change of await readAll(kind, last)) {
        read.push(change);
        last = BigInt(change.changeSeq);
      }
    }
    await writers;
    read.push(...(await readAll(kind, last)));

    const seqs = read.map((change) => BigInt(change.changeSeq));
    expect(seqs.every((seq, index) => index === 0 || seq > seqs[index - 1]!), 'read in increasing order, none twice').toBe(true);
    const { rows } = await given.database.pool.query<{ key: string; change_seq: string }>('select key, change_seq::text from records where kind = $1', [kind]);
    expect(rows).toHaveLength(24_000);
    const readKeys = new Map(read.map((change) => [change.key, change.changeSeq]));
    const missed = rows.filter((row) => readKeys.get(row.key) !== row.change_seq);
    expect(missed, 'every record read at its latest change').toEqual([]);
  }, 120_000);

  it('gives a deletion as op delete, after the upserts before it', async () => {
    const kind = `feed${randomUUID().slice(0, 8)}`;
    const job = 'chart';
    for (const ids of [['a', 'b'], ['a']]) {
      const run = await claim(job);
      const page = { ...pageOf(kind, ids.map((id) => ({ id })), 'id'), writeMode: pageWriteMode('full_refresh', job, 'k') };
      await given.store.pages.storePage(run.id, 0, page, 'music');
      await given.store.deletions.sweep(run.id, refreshScopeOf(job, 'k'));
    }
    const changes = await readAll(kind, 0n);
    expect(changes.map(({ key, op }) => ({ key, op }))).toEqual([
      { key: 'a', op: 'upsert' },
      { key: 'b', op: 'delete' },
    ]);
    expect(await readAll(kind, BigInt(changes[1]!.changeSeq))).toEqual([]);
  });

  it('keeps payload numbers as stored', async () => {
    const kind = `feed${randomUUID().slice(0, 8)}`;
    const run = await claim('numbers');
    const page = pageOf(kind, [{ id: 'x' }], 'id');
    await given.store.pages.storePage(run.id, 0, page, 'music');
    await given.database.pool.query(`update records set payload = '{"id":"x","gas":9007199254740993}' where kind = $1`, [kind]);
    const [change] = await readAll(kind, 0n);
    expect(change!.payload).toContain('9007199254740993');
  });
});
