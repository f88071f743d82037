import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { recordOfKey } from '../../../src/storage/records/keyDigest.js';
import { givenRunStore } from '../../support/givenRunStore.js';
import { pageOf } from '../../support/storedPages.js';

const given = givenRunStore();

const claimRun = () => given.store.claims.claim({ runKey: `key-digest-test/${randomUUID()}`, job: 'txs', source: 'explorer', queryIndex: 0, queryKey: 'k', query: { q: null, params: {} } });
const page = (kind: string, keys: string[]) => pageOf(kind, keys.map((hash) => ({ hash, value: '1' })), 'hash');
const storedKeys = async (kind: string) =>
  (await given.database.pool.query<{ source: string; key: string }>('select source, key from records where kind = $1 order by source, key', [kind])).rows;

describe('records keyed by the digest of their source and key', () => {
  it('keeps the records of two sources under one key apart', async () => {
    const kind = `tx-${randomUUID()}`;
    await given.store.pages.storePage((await claimRun()).id, 0, page(kind, ['k']), 'explorer');
    await given.store.pages.storePage((await claimRun()).id, 0, page(kind, ['k']), 'explorer-two');

    expect(await storedKeys(kind)).toEqual([
      { source: 'explorer', key: 'k' },
      { source: 'explorer-two', key: 'k' },
    ]);
  });

  it('finds a record through the primary key, by its digest', async () => {
    const kind = `tx-${randomUUID()}`;
    await given.store.pages.storePage((await claimRun()).id, 0, page(kind, ['a', 'b']), 'explorer');
    const client = await given.database.pool.connect();
    try {
      await client.query('set enable_seqscan = off');
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(`explain select * from records c where ${recordOfKey('c', "'a'", "'explorer'", `'${kind}'`)}`);
      expect(rows.map((row) => row['QUERY PLAN']).join('\n')).toMatch(/Index Scan using records_default_pkey.*\n.*Index Cond: \(\(key_digest = /);
    } finally {
      client.release();
    }
  });

  it("looks a key up through the primary key in a plan made while its kind's partition is empty", async () => {
    const kind = `k${randomUUID().slice(0, 8)}`;
    await given.database.pool.query('select feedsync_records_partition($1)', [kind]);
    const client = await given.database.pool.connect();
    try {
      // As a worker's statements: one generic plan, made at the first use.
      await client.query('set plan_cache_mode = force_generic_plan');
      await client.query(`prepare look_up(text, text, text) as select content_hash from records c where ${recordOfKey('c', '$2', '$1', '$3')}`);
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(`explain execute look_up('explorer', 'a', '${kind}')`);
      expect(rows.map((row) => row['QUERY PLAN']).join('\n')).toMatch(new RegExp(`Index Scan using records_of_${kind}_pkey`));
    } finally {
      await client.query('deallocate look_up');
      client.release();
    }
  });

  it('computes the digest inline in a statement, not by a call of its function a row', async () => {
    const { rows } = await given.database.pool.query<{ 'QUERY PLAN': string }>(`explain verbose select feedsync_key_digest('explorer', k) from unnest(array['a', 'b']) as k`);
    const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
    expect(plan).toMatch(/sha256\(/);
    expect(plan).not.toMatch(/feedsync_key_digest\(/);
  });

  it('refuses to write a record over another whose key shares its digest, naming both keys and writing nothing', async () => {
    const kind = `tx-${randomUUID()}`;
    const { rows: saved } = await given.database.pool.query<{ body: string }>(`select pg_get_functiondef('feedsync_key_digest(text, text)'::regprocedure) as body`);
    // Every key's digest the same from here: a collision sha256 would never give.
    await given.database.pool.query(`create or replace function feedsync_key_digest(source text, key text) returns bytea language sql immutable as $$ select '\\x00'::bytea $$`);
    try {
      await given.store.pages.storePage((await claimRun()).id, 0, page(kind, ['a']), 'explorer');
      const run = await claimRun();
      await given.store.pages.storePage(run.id, 0, page(kind, ['b']), 'explorer').then(
        () => expect.unreachable('stored a key over another'),
        (error: unknown) => expect(String(error)).toMatch(/the key 'b' of source 'explorer' and the key 'a' of source 'explorer' share a key digest/),
      );
      expect(await storedKeys(kind)).toEqual([{ source: 'explorer', key: 'a' }]);
      expect((await given.database.pool.query('select pages from sync_runs where id = $1', [run.id])).rows).toEqual([{ pages: 0 }]);
    } finally {
      await given.database.pool.query(saved[0]!.body);
    }
  });
});
