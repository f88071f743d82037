import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { PageWrites, RunTakenOverError, type PagePool } from '../../src/storage/PageWrites.js';
import { storePageInsertingRecords, storePageLookingUpUnchanged, storePageUpsertingRecords } from '../../src/storage/statements/storePage.js';
import { openRunStore, type RunStore } from '../../src/storage/RunStore.js';
import { pageOf } from '../support/storedPages.js';
import { waitFor } from '../support/waitFor.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';

let database: TestDatabase;
let store: RunStore;

beforeAll(async () => {
  database = await createTestDatabase();
  store = openRunStore(database.db);
});
afterAll(() => database.drop());

const claimRun = () => store.claims.claim({ runKey: `run-store-test/${randomUUID()}`, job: 'txs', source: 'explorer', queryIndex: 0, queryKey: 'k', query: { q: null, params: {} } });

const page = (kind: string, items: { hash: string; value: string }[]) => pageOf(kind, items, 'hash');

const txs = (values: string[]) => values.map((value, index) => ({ hash: `0x${index}`, value }));
const storedValues = async (kind: string) =>
  (await database.pool.query<{ value: string }>(`select payload->>'value' as value from records where kind = $1 order by key`, [kind])).rows.map((row) => row.value);
const envelopeCount = async (runId: string) => Number((await database.pool.query<{ n: string }>('select count(*) as n from envelopes where run_id = $1', [runId])).rows[0]!.n);

const bodiesOf = async (runIds: string[]) =>
  (
    await database.pool.query<{ content_hash: string; body: string; stored: number }>(
      `select e.content_hash, b.body::text as body, (select count(*)::int from page_bodies p where p.content_hash = e.content_hash) as stored
        from envelopes e join page_bodies b using (content_hash) where e.run_id = any($1::uuid[]) order by e.run_id, e.page_seq`,
      [runIds],
    )
  ).rows;

describe('PageWrites.storePage: page bodies', () => {
  it('stores a body once however many runs receive it, each envelope referring to it by hash', async () => {
    const kind = `tx-${randomUUID()}`;
    const same = page(kind, txs(['1', '2']));
    const runs = [await claimRun(), await claimRun(), await claimRun()];
    for (const run of runs) await store.pages.storePage(run.id, 0, same, 'explorer');
    const rows = await bodiesOf(runs.map((run) => run.id));
    expect(rows).toHaveLength(3);
    expect(new Set(rows.map((row) => row.content_hash))).toEqual(new Set([same.contentHash]));
    expect(rows.every((row) => row.stored === 1 && row.body === same.raw)).toBe(true);
  });

  it('stores a body of other bytes apart, under its own hash', async () => {
    const kind = `tx-${randomUUID()}`;
    const [first, second] = [await claimRun(), await claimRun()];
    await store.pages.storePage(first.id, 0, page(kind, txs(['1'])), 'explorer');
    await store.pages.storePage(second.id, 0, page(kind, txs(['1b'])), 'explorer');
    const rows = await bodiesOf([first.id, second.id]);
    expect(new Set(rows.map((row) => row.content_hash)).size).toBe(2);
    expect(rows.map((row) => JSON.parse(row.body) as unknown)).toEqual(expect.arrayContaining([expect.objectContaining({ data: { result: [{ hash: '0x0', value: '1b' }] } })]));
  });

  it('stores a page whose body, stored already but left without envelopes, the orphan sweep deletes as the page is stored: the page stores the body again', async () => {
    const kind = `tx-${randomUUID()}`;
    // Its own values: bodies are stored by hash, and no other test may have stored this one.
    const same = page(kind, txs([`1-${kind}`]));
    const pruned = await claimRun();
    await store.pages.storePage(pruned.id, 0, same, 'explorer');
    await database.pool.query('delete from envelopes where run_id = $1', [pruned.id]);
    const run = await claimRun();
    // The sweep deletes the orphan body, and commits only once the page's statement, which found the body stored, waits on it.
    const sweep = await database.pool.connect();
    try {
      const sweepPid = (await sweep.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
      await sweep.query('begin');
      await sweep.query('delete from page_bodies where content_hash = $1', [same.contentHash]);
      const stored = store.pages.storePage(run.id, 0, same, 'explorer');
      await waitFor('the page statement waiting on the sweep', async () => (await database.pool.query('select 1 from pg_stat_activity where $1::int = any(pg_blocking_pids(pid))', [sweepPid])).rowCount === 1);
      await sweep.query('commit');

      expect((await stored).counts).toEqual({ new: 0, updated: 0, unchanged: 1 });
    } finally {
      // Still in its transaction if the test failed first: never hand a row lock back to the pool.
      sweep.release(true);
    }
    expect(await bodiesOf([run.id])).toEqual([{ content_hash: same.contentHash, body: same.raw, stored: 1 }]);
  });
});

describe('PageWrites.storeBodyAhead', () => {
  const bodyRow = async (contentHash: string) =>
    (await database.pool.query<{ xmin: string; body: string }>('select xmin::text as xmin, body::text as body from page_bodies where content_hash = $1', [contentHash])).rows;

  it('stores a page’s body before the page, which then refers to that row and writes no other', async () => {
    const kind = `tx-${randomUUID()}`;
    const ahead = page(kind, txs([`1-${kind}`]));
    await store.pages.storeBodyAhead(ahead);
    const [stored] = await bodyRow(ahead.contentHash);
    expect(stored).toBeDefined();
    expect(stored?.body).toBe(ahead.raw);

    const run = await claimRun();
    await store.pages.storePage(run.id, 0, ahead, 'explorer');

    expect(await bodiesOf([run.id])).toEqual([{ content_hash: ahead.contentHash, body: ahead.raw, stored: 1 }]);
    expect(await bodyRow(ahead.contentHash)).toEqual([stored]);
  });

  it('stores no body while the pool has no connection to spare, so that no page waits behind one', async () => {
    const kind = `tx-${randomUUID()}`;
    const busy = pageWritesTelling({ idleCount: 0, totalCount: 4, waitingCount: 0, options: { max: 4 } });
    const waitedFor = pageWritesTelling({ idleCount: 0, totalCount: 3, waitingCount: 1, options: { max: 4 } });
    const ahead = page(kind, txs([`1-${kind}`]));

    await busy.pages.storeBodyAhead(ahead);
    await waitedFor.pages.storeBodyAhead(ahead);

    expect([...busy.sent, ...waitedFor.sent]).toEqual([]);
    expect(await bodyRow(ahead.contentHash)).toEqual([]);
  });

  it('stores at most 4 bodies at once: the pool’s connections beyond the runs’ own', async () => {
    const kind = `tx-${randomUUID()}`;
    let sent = 0;
    const releases: (() => void)[] = [];
    const pool = {
      query: () => {
        sent += 1;
        return new Promise((resolve) => releases.push(() => resolve({ rows: [] })));
      },
      idleCount: 10,
      totalCount: 10,
      waitingCount: 0,
      options: { max: 20 },
    } as unknown as PagePool;
    const pages = new PageWrites(pool);
    const bodies = Array.from({ length: 6 }, (_, index) => page(kind, txs([`${index}-${kind}`])));

    const five = bodies.slice(0, 5).map((body) => pages.storeBodyAhead(body));
    expect(sent).toBe(4);
    releases[0]!();
    await five[0];
    const sixth = pages.storeBodyAhead(bodies[5]!);
    expect(sent).toBe(5);

    releases.forEach((release) => release());
    await Promise.all([...five, sixth]);
  });

  it('leaves a body stored already as it is', async () => {
    const kind = `tx-${randomUUID()}`;
    const same = page(kind, txs([`1-${kind}`]));
    await store.pages.storePage((await claimRun()).id, 0, same, 'explorer');
    const before = await bodyRow(same.contentHash);

    await store.pages.storeBodyAhead(same);

    expect(await bodyRow(same.contentHash)).toEqual(before);
  });
});

describe('PageWrites.storePage', () => {
  it('stores a re-read page whose records are all unchanged: envelope and checkpoint, no record rewritten', async () => {
    const kind = `tx-${randomUUID()}`;
    const run = await claimRun();
    await store.pages.storePage(run.id, 0, page(kind, txs(['1', '2'])), 'explorer');
    const xmins = (await database.pool.query(`select xmin from records where kind = $1`, [kind])).rows;

    const second = await store.pages.storePage(run.id, 1, page(kind, txs(['1', '2'])), 'explorer');
    const third = await store.pages.storePage(run.id, 2, page(kind, txs(['1', '2'])), 'explorer');

    expect(second.counts).toEqual({ new: 0, updated: 0, unchanged: 2 });
    expect(third.counts).toEqual({ new: 0, updated: 0, unchanged: 2 });
    expect((await database.pool.query(`select xmin from records where kind = $1`, [kind])).rows).toEqual(xmins);
    expect(await envelopeCount(run.id)).toBe(3);
  });

  it('after pages of unchanged records, stores a page in which one record changed, with its change', async () => {
    const kind = `tx-${randomUUID()}`;
    const run = await claimRun();
    await store.pages.storePage(run.id, 0, page(kind, txs(['1', '2'])), 'explorer');
    await store.pages.storePage(run.id, 1, page(kind, txs(['1', '2'])), 'explorer');

    const changed = await store.pages.storePage(run.id, 2, page(kind, txs(['1', '2b'])), 'explorer');

    expect(changed.counts).toEqual({ new: 0, updated: 1, unchanged: 1 });
    expect(await storedValues(kind)).toEqual(['1', '2b']);
    expect(await envelopeCount(run.id)).toBe(3);
    const { rows } = await database.pool.query<{ pages: number; records_updated: number; records_unchanged: number }>(
      'select pages, records_updated, records_unchanged from sync_runs where id = $1',
      [run.id],
    );
    expect(rows[0]).toEqual({ pages: 3, records_updated: 1, records_unchanged: 3 });
  });

  it('refuses a page the run has moved past, whichever way the page would be stored', async () => {
    const kind = `tx-${randomUUID()}`;
    const run = await claimRun();
    await store.pages.storePage(run.id, 0, page(kind, txs(['1'])), 'explorer');
    await store.pages.storePage(run.id, 1, page(kind, txs(['1'])), 'explorer');

    // This store expects an unchanged page (its last page held unchanged records) and offers it without payloads first.
    await expect(store.pages.storePage(run.id, 1, page(kind, txs(['1'])), 'explorer')).rejects.toBeInstanceOf(RunTakenOverError);
    // Another store has no memory of the run and sends the page with its payloads.
    await expect(openRunStore(database.db).pages.storePage(run.id, 1, page(kind, txs(['2'])), 'explorer')).rejects.toBeInstanceOf(RunTakenOverError);
    expect(await envelopeCount(run.id)).toBe(2);
  });
});

/** PageWrites on the test database, with the names of the statements it sends, in order. */
function pageWritesTelling(counts: Partial<Pick<PagePool, 'idleCount' | 'totalCount' | 'waitingCount' | 'options'>> = { idleCount: 1, totalCount: 1, waitingCount: 0, options: { max: 1 } }): { pages: PageWrites; sent: string[] } {
  const sent: string[] = [];
  const pool = {
    query: (config: { name?: string }, values?: unknown[]) => {
      sent.push(config.name ?? '(unnamed)');
      return database.pool.query(config as pg.QueryConfig, values);
    },
    ...counts,
  } as unknown as PagePool;
  return { pages: new PageWrites(pool), sent };
}

/** A page of transactions with these hashes (their keys) and values. */
const pageOfTxs = (kind: string, pairs: [hash: string, value: string][]) => page(kind, pairs.map(([hash, value]) => ({ hash, value })));

describe('PageWrites.storePage: how records are written', () => {
  it('after a page of only new records, inserts the next page of new records plainly', async () => {
    const kind = `tx-${randomUUID()}`;
    const run = await claimRun();
    const { pages, sent } = pageWritesTelling();
    await pages.storePage(run.id, 0, pageOfTxs(kind, [['0xa', '1'], ['0xb', '2']]), 'explorer');
    const second = await pages.storePage(run.id, 1, pageOfTxs(kind, [['0xc', '3'], ['0xd', '4']]), 'explorer');

    expect(sent).toEqual([storePageLookingUpUnchanged.name, storePageInsertingRecords.name]);
    expect(second.counts).toEqual({ new: 2, updated: 0, unchanged: 0 });
    expect(await storedValues(kind)).toEqual(['1', '2', '3', '4']);
  });

  it('stores a page expected new that holds records stored already by looking them up: each counted and written as it is', async () => {
    const kind = `tx-${randomUUID()}`;
    const other = await claimRun();
    await store.pages.storePage(other.id, 0, pageOfTxs(kind, [['0xc', '3'], ['0xd', '4']]), 'explorer');
    const changeSeqOfKeptRecord = async () => (await database.pool.query(`select change_seq from records where kind = $1 and key = '0xd'`, [kind])).rows[0] as unknown;
    const before = await changeSeqOfKeptRecord();
    const run = await claimRun();
    const { pages, sent } = pageWritesTelling();
    await pages.storePage(run.id, 0, pageOfTxs(kind, [['0xa', '1'], ['0xb', '2']]), 'explorer');

    const second = await pages.storePage(run.id, 1, pageOfTxs(kind, [['0xc', '3b'], ['0xd', '4'], ['0xe', '5']]), 'explorer');

    expect(sent).toEqual([storePageLookingUpUnchanged.name, storePageInsertingRecords.name, storePageLookingUpUnchanged.name]);
    expect(second.counts).toEqual({ new: 1, updated: 1, unchanged: 1 });
    expect(await storedValues(kind)).toEqual(['1', '2', '3b', '4', '5']);
    expect(await changeSeqOfKeptRecord()).toEqual(before);
    expect(await envelopeCount(run.id)).toBe(2);
    const { rows } = await database.pool.query('select pages, records_new, records_updated, records_unchanged from sync_runs where id = $1', [run.id]);
    expect(rows[0]).toEqual({ pages: 2, records_new: 3, records_updated: 1, records_unchanged: 1 });
  });

  it('revives a record marked deleted that a page expected new holds: counted as updated, no longer deleted', async () => {
    const kind = `tx-${randomUUID()}`;
    const other = await claimRun();
    await store.pages.storePage(other.id, 0, pageOfTxs(kind, [['0xc', '3']]), 'explorer');
    await database.pool.query(`update records set deleted_at = now() where kind = $1`, [kind]);
    const run = await claimRun();
    await store.pages.storePage(run.id, 0, pageOfTxs(kind, [['0xa', '1']]), 'explorer');

    const second = await store.pages.storePage(run.id, 1, pageOfTxs(kind, [['0xc', '3'], ['0xd', '4']]), 'explorer');

    expect(second.counts).toEqual({ new: 1, updated: 1, unchanged: 0 });
    const { rows } = await database.pool.query(`select key from records where kind = $1 and deleted_at is null order by key`, [kind]);
    expect(rows.map((row: { key: string }) => row.key)).toEqual(['0xa', '0xc', '0xd']);
  });

  it('keeps one open version per record for an append query, whether a page is inserted plainly or stored again by lookup', async () => {
    const kind = `tx-${randomUUID()}`;
    const append = (items: [string, string][]) => ({ ...pageOfTxs(kind, items), writeMode: { refreshScope: null, keepHistory: true } });
    const other = await claimRun();
    await store.pages.storePage(other.id, 0, append([['0xc', '3']]), 'explorer');
    const run = await claimRun();
    await store.pages.storePage(run.id, 0, append([['0xa', '1']]), 'explorer');

    await store.pages.storePage(run.id, 1, append([['0xc', '3b'], ['0xd', '4']]), 'explorer');
    await store.pages.storePage(run.id, 2, append([['0xe', '5']]), 'explorer');

    const { rows } = await database.pool.query(
      `select key, count(*)::int as versions, count(*) filter (where valid_to is null)::int as open,
        max(payload->>'value') filter (where valid_to is null) as value
        from record_versions where kind = $1 group by key order by key`,
      [kind],
    );
    expect(rows).toEqual([
      { key: '0xa', versions: 1, open: 1, value: '1' },
      { key: '0xc', versions: 2, open: 1, value: '3b' },
      { key: '0xd', versions: 1, open: 1, value: '4' },
      { key: '0xe', versions: 1, open: 1, value: '5' },
    ]);
  });

  it('after a page of changed records, upserts the next page without looking records up', async () => {
    const kind = `tx-${randomUUID()}`;
    const other = await claimRun();
    await store.pages.storePage(other.id, 0, pageOfTxs(kind, [['0xa', '1'], ['0xb', '2']]), 'explorer');
    const run = await claimRun();
    const { pages, sent } = pageWritesTelling();
    await pages.storePage(run.id, 0, pageOfTxs(kind, [['0xa', '1b'], ['0xb', '2b']]), 'explorer');

    const second = await pages.storePage(run.id, 1, pageOfTxs(kind, [['0xc', '3'], ['0xa', '1c']]), 'explorer');

    expect(sent).toEqual([storePageLookingUpUnchanged.name, storePageUpsertingRecords.name]);
    expect(second.counts).toEqual({ new: 1, updated: 1, unchanged: 0 });
    expect(await storedValues(kind)).toEqual(['1c', '2b', '3']);
  });
});
