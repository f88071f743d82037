import { hash, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RunTakenOverError } from '../../../src/storage/pages/PageWrites.js';
import { storePageInsertingRecords, storePageLookingUpUnchanged, storePageUpsertingRecords } from '../../../src/storage/pages/statements/storePage.js';
import { openRunStore } from '../../../src/storage/runStore.js';
import { pageOf, pageWritesTelling } from '../../support/storedPages.js';
import { givenRunStore } from '../../support/givenRunStore.js';

const given = givenRunStore();

const claimRun = () => given.store.claims.claim({ runKey: `run-store-test/${randomUUID()}`, job: 'txs', source: 'explorer', queryIndex: 0, queryKey: 'k', query: { q: null, params: {} } });

const page = (kind: string, items: { hash: string; value: string }[]) => pageOf(kind, items, 'hash');

const txs = (values: string[]) => values.map((value, index) => ({ hash: `0x${index}`, value }));
const storedValues = async (kind: string) =>
  (await given.database.pool.query<{ value: string }>(`select payload->>'value' as value from records where kind = $1 order by key`, [kind])).rows.map((row) => row.value);
const envelopeCount = async (runId: string) => Number((await given.database.pool.query<{ n: string }>('select count(*) as n from envelopes where run_id = $1', [runId])).rows[0]!.n);

describe('PageWrites.storePage', () => {
  it('stores records holding multi-byte text as they were written, payload and content hash', async () => {
    const kind = `tx-${randomUUID()}`;
    const run = await claimRun();
    const values = ['café', '🎉', '漢字', 'plain'];
    const stored = await given.store.pages.storePage(run.id, 0, page(kind, txs(values)), 'explorer');

    const { rows } = await given.database.pool.query<{ key: string; payload: { value: string }; content_hash: string }>(
      'select key, payload, content_hash from records where kind = $1 order by key',
      [kind],
    );
    expect(rows.map((row) => row.payload.value)).toEqual(values);
    expect(rows.map((row) => row.content_hash)).toEqual(txs(values).map((record) => hash('sha1', JSON.stringify(record), 'base64')));
    expect(stored.counts.new).toBe(values.length);
  });

  it('stores a re-read page whose records are all unchanged: envelope and checkpoint, no record rewritten', async () => {
    const kind = `tx-${randomUUID()}`;
    const run = await claimRun();
    await given.store.pages.storePage(run.id, 0, page(kind, txs(['1', '2'])), 'explorer');
    const xmins = (await given.database.pool.query(`select xmin from records where kind = $1`, [kind])).rows;

    const second = await given.store.pages.storePage(run.id, 1, page(kind, txs(['1', '2'])), 'explorer');
    const third = await given.store.pages.storePage(run.id, 2, page(kind, txs(['1', '2'])), 'explorer');

    expect(second.counts).toEqual({ new: 0, updated: 0, unchanged: 2 });
    expect(third.counts).toEqual({ new: 0, updated: 0, unchanged: 2 });
    expect((await given.database.pool.query(`select xmin from records where kind = $1`, [kind])).rows).toEqual(xmins);
    expect(await envelopeCount(run.id)).toBe(3);
  });

  it('after pages of unchanged records, stores a page in which one record changed, with its change', async () => {
    const kind = `tx-${randomUUID()}`;
    const run = await claimRun();
    await given.store.pages.storePage(run.id, 0, page(kind, txs(['1', '2'])), 'explorer');
    await given.store.pages.storePage(run.id, 1, page(kind, txs(['1', '2'])), 'explorer');

    const changed = await given.store.pages.storePage(run.id, 2, page(kind, txs(['1', '2b'])), 'explorer');

    expect(changed.counts).toEqual({ new: 0, updated: 1, unchanged: 1 });
    expect(await storedValues(kind)).toEqual(['1', '2b']);
    expect(await envelopeCount(run.id)).toBe(3);
    const { rows } = await given.database.pool.query<{ pages: number; records_updated: number; records_unchanged: number }>(
      'select pages, records_updated, records_unchanged from sync_runs where id = $1',
      [run.id],
    );
    expect(rows[0]).toEqual({ pages: 3, records_updated: 1, records_unchanged: 3 });
  });

  it('refuses a page the run has moved past, whichever way the page would be stored', async () => {
    const kind = `tx-${randomUUID()}`;
    const run = await claimRun();
    await given.store.pages.storePage(run.id, 0, page(kind, txs(['1'])), 'explorer');
    await given.store.pages.storePage(run.id, 1, page(kind, txs(['1'])), 'explorer');

    // This store expects an unchanged page (its last page held unchanged records) and offers it without payloads first.
    await expect(given.store.pages.storePage(run.id, 1, page(kind, txs(['1'])), 'explorer')).rejects.toBeInstanceOf(RunTakenOverError);
    // Another store has no memory of the run and sends the page with its payloads.
    await expect(openRunStore(given.database.db).pages.storePage(run.id, 1, page(kind, txs(['2'])), 'explorer')).rejects.toBeInstanceOf(RunTakenOverError);
    expect(await envelopeCount(run.id)).toBe(2);
  });
});

/** A page of transactions with these hashes (their keys) and values. */
const pageOfTxs = (kind: string, pairs: [hash: string, value: string][]) => page(kind, pairs.map(([hash, value]) => ({ hash, value })));

describe('PageWrites.storePage: how records are written', () => {
  it('after a page of only new records, inserts the next page of new records plainly', async () => {
    const kind = `tx-${randomUUID()}`;
    const run = await claimRun();
    const { pages, sent } = pageWritesTelling(given.database.pool);
    await pages.storePage(run.id, 0, pageOfTxs(kind, [['0xa', '1'], ['0xb', '2']]), 'explorer');
    const second = await pages.storePage(run.id, 1, pageOfTxs(kind, [['0xc', '3'], ['0xd', '4']]), 'explorer');

    expect(sent).toEqual([storePageLookingUpUnchanged.name, storePageInsertingRecords.name]);
    expect(second.counts).toEqual({ new: 2, updated: 0, unchanged: 0 });
    expect(await storedValues(kind)).toEqual(['1', '2', '3', '4']);
  });

  it('stores a page expected new that holds records stored already by looking them up: each counted and written as it is', async () => {
    const kind = `tx-${randomUUID()}`;
    const other = await claimRun();
    await given.store.pages.storePage(other.id, 0, pageOfTxs(kind, [['0xc', '3'], ['0xd', '4']]), 'explorer');
    const changeSeqOfKeptRecord = async () => (await given.database.pool.query(`select change_seq from records where kind = $1 and key = '0xd'`, [kind])).rows[0] as unknown;
    const before = await changeSeqOfKeptRecord();
    const run = await claimRun();
    const { pages, sent } = pageWritesTelling(given.database.pool);
    await pages.storePage(run.id, 0, pageOfTxs(kind, [['0xa', '1'], ['0xb', '2']]), 'explorer');

    const second = await pages.storePage(run.id, 1, pageOfTxs(kind, [['0xc', '3b'], ['0xd', '4'], ['0xe', '5']]), 'explorer');

    expect(sent).toEqual([storePageLookingUpUnchanged.name, storePageInsertingRecords.name, storePageLookingUpUnchanged.name]);
    expect(second.counts).toEqual({ new: 1, updated: 1, unchanged: 1 });
    expect(await storedValues(kind)).toEqual(['1', '2', '3b', '4', '5']);
    expect(await changeSeqOfKeptRecord()).toEqual(before);
    expect(await envelopeCount(run.id)).toBe(2);
    const { rows } = await given.database.pool.query('select pages, records_new, records_updated, records_unchanged from sync_runs where id = $1', [run.id]);
    expect(rows[0]).toEqual({ pages: 2, records_new: 3, records_updated: 1, records_unchanged: 1 });
  });

  it('revives a record marked deleted that a page expected new holds: counted as updated, no longer deleted', async () => {
    const kind = `tx-${randomUUID()}`;
    const other = await claimRun();
    await given.store.pages.storePage(other.id, 0, pageOfTxs(kind, [['0xc', '3']]), 'explorer');
    await given.database.pool.query(`update records set deleted_at = now() where kind = $1`, [kind]);
    const run = await claimRun();
    await given.store.pages.storePage(run.id, 0, pageOfTxs(kind, [['0xa', '1']]), 'explorer');

    const second = await given.store.pages.storePage(run.id, 1, pageOfTxs(kind, [['0xc', '3'], ['0xd', '4']]), 'explorer');

    expect(second.counts).toEqual({ new: 1, updated: 1, unchanged: 0 });
    const { rows } = await given.database.pool.query(`select key from records where kind = $1 and deleted_at is null order by key`, [kind]);
    expect(rows.map((row: { key: string }) => row.key)).toEqual(['0xa', '0xc', '0xd']);
  });

  it('keeps one open version per record for an append query, whether a page is inserted plainly or stored again by lookup', async () => {
    const kind = `tx-${randomUUID()}`;
    const append = (items: [string, string][]) => ({ ...pageOfTxs(kind, items), writeMode: { refreshScope: null, keepHistory: true } });
    const other = await claimRun();
    await given.store.pages.storePage(other.id, 0, append([['0xc', '3']]), 'explorer');
    const run = await claimRun();
    await given.store.pages.storePage(run.id, 0, append([['0xa', '1']]), 'explorer');

    await given.store.pages.storePage(run.id, 1, append([['0xc', '3b'], ['0xd', '4']]), 'explorer');
    await given.store.pages.storePage(run.id, 2, append([['0xe', '5']]), 'explorer');

    const { rows } = await given.database.pool.query(
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
    await given.store.pages.storePage(other.id, 0, pageOfTxs(kind, [['0xa', '1'], ['0xb', '2']]), 'explorer');
    const run = await claimRun();
    const { pages, sent } = pageWritesTelling(given.database.pool);
    await pages.storePage(run.id, 0, pageOfTxs(kind, [['0xa', '1b'], ['0xb', '2b']]), 'explorer');

    const second = await pages.storePage(run.id, 1, pageOfTxs(kind, [['0xc', '3'], ['0xa', '1c']]), 'explorer');

    expect(sent).toEqual([storePageLookingUpUnchanged.name, storePageUpsertingRecords.name]);
    expect(second.counts).toEqual({ new: 1, updated: 1, unchanged: 0 });
    expect(await storedValues(kind)).toEqual(['1c', '2b', '3']);
  });
});
