import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { storePageLookingUpUnchanged } from '../../../src/storage/pages/statements/storePage.js';
import { MERGE } from '../../../src/storage/pages/writeModes.js';
import { pageOf, pageWritesTelling } from '../../support/storedPages.js';
import { waitFor } from '../../support/waitFor.js';
import { givenRunStore } from '../../support/givenRunStore.js';

const given = givenRunStore();

const claimRun = () => given.store.claims.claim({ runKey: `run-store-test/${randomUUID()}`, job: 'txs', source: 'explorer', queryIndex: 0, queryKey: 'k', query: { q: null, params: {} } });

const page = (kind: string, items: { hash: string; value: string }[]) => pageOf(kind, items, 'hash');

const txs = (values: string[]) => values.map((value, index) => ({ hash: `0x${index}`, value }));

/** Where a page statement's values hold the body. */
const BODY_PARAMETER = storePageLookingUpUnchanged.parameters.indexOf('body');

const bodiesOf = async (runIds: string[]) =>
  (
    await given.database.pool.query<{ content_hash: string; body: string; stored: number }>(
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
    for (const run of runs) await given.store.pages.storePage(run.id, 0, same, 'explorer');
    const rows = await bodiesOf(runs.map((run) => run.id));
    expect(rows).toHaveLength(3);
    expect(new Set(rows.map((row) => row.content_hash))).toEqual(new Set([same.contentHash]));
    expect(rows.every((row) => row.stored === 1 && row.body === same.raw)).toBe(true);
  });

  it('stores a body given as the bytes received as the same text as its decoded form', async () => {
    const kind = `tx-${randomUUID()}`;
    const asText = page(kind, txs(['café', '😀']));
    const text = asText.raw as string;
    const asBytes = { ...asText, raw: Buffer.from(text) };
    const run = await claimRun();
    await given.store.pages.storePage(run.id, 0, asBytes, 'explorer');
    expect(await bodiesOf([run.id])).toEqual([{ content_hash: asBytes.contentHash, body: text, stored: 1 }]);
  });

  it('stores a body of other bytes apart, under its own hash', async () => {
    const kind = `tx-${randomUUID()}`;
    const [first, second] = [await claimRun(), await claimRun()];
    await given.store.pages.storePage(first.id, 0, page(kind, txs(['1'])), 'explorer');
    await given.store.pages.storePage(second.id, 0, page(kind, txs(['1b'])), 'explorer');
    const rows = await bodiesOf([first.id, second.id]);
    expect(new Set(rows.map((row) => row.content_hash)).size).toBe(2);
    expect(rows.map((row) => JSON.parse(row.body) as unknown)).toEqual(expect.arrayContaining([expect.objectContaining({ data: { result: [{ hash: '0x0', value: '1b' }] } })]));
  });

  it('stores a page whose body, stored already but left without envelopes, the orphan sweep deletes as the page is stored: the page stores the body again', async () => {
    const kind = `tx-${randomUUID()}`;
    // Its own values: bodies are stored by hash, and no other test may have stored this one.
    const same = page(kind, txs([`1-${kind}`]));
    const pruned = await claimRun();
    await given.store.pages.storePage(pruned.id, 0, same, 'explorer');
    await given.database.pool.query('delete from envelopes where run_id = $1', [pruned.id]);
    const run = await claimRun();
    // The sweep deletes the orphan body, and commits only once the page's statement, which found the body stored, waits on it.
    const sweep = await given.database.pool.connect();
    try {
      const sweepPid = (await sweep.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
      await sweep.query('begin');
      await sweep.query('delete from page_bodies where content_hash = $1', [same.contentHash]);
      const stored = given.store.pages.storePage(run.id, 0, same, 'explorer');
      await waitFor('the page statement waiting on the sweep', async () => (await given.database.pool.query('select 1 from pg_stat_activity where $1::int = any(pg_blocking_pids(pid))', [sweepPid])).rowCount === 1);
      await sweep.query('commit');

      expect((await stored).counts).toEqual({ new: 0, updated: 0, unchanged: 1 });
    } finally {
      // Still in its transaction if the test failed first: never hand a row lock back to the pool.
      sweep.release(true);
    }
    expect(await bodiesOf([run.id])).toEqual([{ content_hash: same.contentHash, body: same.raw, stored: 1 }]);
  });

  it('sends a page whose body it was told is stored (a replay read it) without the body', async () => {
    const kind = `tx-${randomUUID()}`;
    const replayed = page(kind, txs([`1-${kind}`]));
    await given.store.pages.storePage((await claimRun()).id, 0, replayed, 'explorer');
    const { pages, sent, sentValues } = pageWritesTelling(given.database.pool);

    const run = await claimRun();
    await pages.storePage(run.id, 0, { ...replayed, bodyStored: true }, 'explorer');

    expect(sent).toEqual([storePageLookingUpUnchanged.name]);
    expect(sentValues[0]![BODY_PARAMETER]).toBeNull();
    expect(await bodiesOf([run.id])).toEqual([{ content_hash: replayed.contentHash, body: replayed.raw, stored: 1 }]);
  });

  it.each([
    ['a merge', MERGE],
    ['an append', { refreshScope: null, keepHistory: true }],
  ])('sends %s page once more, with its body, when the body it was told is stored was deleted before the page was stored', async (_mode, writeMode) => {
    const kind = `tx-${randomUUID()}`;
    const replayed = { ...page(kind, txs([`1-${kind}`])), writeMode };
    const received = await claimRun();
    await given.store.pages.storePage(received.id, 0, replayed, 'explorer');
    const { pages, sent, sentValues } = pageWritesTelling(given.database.pool);
    // A prune deletes bodies no envelope refers to: one a replay read may lose its last envelope before the page is stored.
    await given.database.pool.query('delete from envelopes where run_id = $1', [received.id]);
    await given.database.pool.query('delete from page_bodies where content_hash = $1', [replayed.contentHash]);

    const run = await claimRun();
    const stored = await pages.storePage(run.id, 0, { ...replayed, bodyStored: true }, 'explorer');

    const pageStatements = sent.flatMap((name, at) => (name === storePageLookingUpUnchanged.name ? [sentValues[at]![BODY_PARAMETER]] : []));
    expect(pageStatements).toEqual([null, replayed.raw]);
    expect(stored.counts).toEqual({ new: 0, updated: 0, unchanged: 1 });
    expect(await bodiesOf([run.id])).toEqual([{ content_hash: replayed.contentHash, body: replayed.raw, stored: 1 }]);
  });
});
