import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { PageToStore } from '../../../src/storage/pages/PageWrites.js';
import { takeChangeTicket } from '../../../src/storage/records/statements/takeChangeTicket.js';
import { readChangeHorizon } from '../../../src/storage/records/statements/readChangeHorizon.js';
import { RunClaims } from '../../../src/storage/runs/RunClaims.js';
import { DatabaseClock } from '../../../src/storage/database/DatabaseClock.js';
import { storePageLookingUpUnchanged } from '../../../src/storage/pages/statements/storePage.js';
import { pageOf, pageWritesTelling } from '../../support/storedPages.js';
import { givenRunStore } from '../../support/givenRunStore.js';

const given = givenRunStore();

const claimRun = (queryKey = 'k') => given.store.claims.claim({ runKey: `proven-test/${randomUUID()}`, job: 'txs', source: 'explorer', queryIndex: 0, queryKey, query: { q: null, params: {} } });

/** A page of `{hash, value}` records as a sync of a query under derivation `derivation` hands it over. */
const page = (kind: string, values: Record<string, string>, derivation: string | null = 'd1'): PageToStore => ({
  ...pageOf(
    kind,
    Object.entries(values).map(([hash, value]) => ({ hash, value })),
    'hash',
  ),
  derivation,
});

/** Stores pages one after another in a new run; returns each page's outcome. */
async function syncPages(pages: PageToStore[], queryKey?: string) {
  const run = await claimRun(queryKey);
  const stored = [];
  for (const [index, each] of pages.entries()) stored.push(await given.store.pages.storePage(run.id, index, each, 'explorer'));
  given.store.pages.forget(run.id);
  return { runId: run.id, stored };
}

const recordRows = async (kind: string) =>
  (await given.database.pool.query<{ key: string; value: string; xmin: string; change_seq: string }>(`select key, payload->>'value' as value, xmin::text, change_seq::text from records where kind = $1 order by key`, [kind])).rows;

const envelopeProofs = async (runId: string) =>
  (
    await given.database.pool.query<{ from: string | null; to: string | null; records: number | null }>(
      'select proof_seq_from::text as from, proof_seq_to::text as to, proof_records as records from envelopes where run_id = $1 order by page_seq',
      [runId],
    )
  ).rows;

describe('PageWrites.storePage: pages proven stored unchanged', () => {
  it('stores a page whose body an earlier run stored, all its records written, without its records: none rewritten, all counted unchanged', async () => {
    const kind = `tx-${randomUUID()}`;
    const pages = [page(kind, { a: '1', b: '1' }), page(kind, { c: '1', d: '1' })];
    await syncPages(pages);
    const before = await recordRows(kind);

    const { runId, stored } = await syncPages(pages);

    expect(stored[1]).toMatchObject({ counts: { new: 0, updated: 0, unchanged: 2 }, records: undefined });
    expect(await recordRows(kind)).toEqual(before);
    const run = await given.database.pool.query('select pages, records_unchanged from sync_runs where id = $1', [runId]);
    expect(run.rows[0]).toEqual({ pages: 2, records_unchanged: 4 });
    const proofs = await envelopeProofs(runId);
    expect(proofs[1]).toMatchObject({ records: 2 });
    expect(proofs[1]!.from).not.toBeNull();
  });

  it('rewrites a record another query changed since: the proof no longer holds', async () => {
    const kind = `tx-${randomUUID()}`;
    const pages = [page(kind, { a: '1', b: '1' }), page(kind, { c: '1', d: '1' })];
    await syncPages(pages);
    await syncPages([page(kind, { c: 'other' })], 'another-query');

    const { stored } = await syncPages(pages);

    expect(stored[1]!.counts).toEqual({ new: 0, updated: 1, unchanged: 1 });
    expect(stored[1]!.records).toBeDefined();
    expect((await recordRows(kind)).map((row) => `${row.key}=${row.value}`)).toEqual(['a=1', 'b=1', 'c=1', 'd=1']);
  });

  it('rewrites a record changed since although another run drew a number inside the proof\'s range for a record of the kind (pages stored at once interleave their numbers)', async () => {
    const kind = `tx-${randomUUID()}`;
    const pages = [page(kind, { a: '1', b: '1' }), page(kind, { c: '1', d: '1' })];
    const { runId } = await syncPages(pages);
    const proof = (await envelopeProofs(runId))[1]!;
    // Another run's record of the kind, numbered inside the range as a page stored at the same time may be.
    await syncPages([page(kind, { e: '1' })], 'another-query');
    await given.database.pool.query(`update records set change_seq = $2 where kind = $1 and key = 'e'`, [kind, proof.to]);
    await given.database.pool.query(`update records set payload = '{"hash":"c","value":"changed"}', content_hash = 'changed', change_seq = nextval('records_change_seq') where kind = $1 and key = 'c'`, [kind]);

    const { stored } = await syncPages(pages);

    expect(stored[1]!.counts).toEqual({ new: 0, updated: 1, unchanged: 1 });
    expect((await recordRows(kind)).map((row) => `${row.key}=${row.value}`)).toEqual(['a=1', 'b=1', 'c=1', 'd=1', 'e=1']);
  });

  it('keeps no all-unchanged proof while a change ticket below the kind\'s highest change_seq is held (a change in flight could be below it), and keeps one once none is', async () => {
    const kind = `tx-${randomUUID()}`;
    await syncPages([page(kind, { a: '1' })]);
    const holder = await given.database.pool.connect();
    let held: { runId: string };
    try {
      await holder.query('begin');
      await holder.query(takeChangeTicket.with({}));
      await syncPages([page(kind, { z: '1' })], 'another-query');
      held = await syncPages([page(kind, { a: '1' })]);
    } finally {
      await holder.query('rollback');
      holder.release();
    }
    const free = await syncPages([page(kind, { a: '1' })]);

    expect((await envelopeProofs(held.runId))[0]).toMatchObject({ from: null, to: null });
    expect((await envelopeProofs(free.runId))[0]).toMatchObject({ from: null, records: 1 });
    expect((await envelopeProofs(free.runId))[0]!.to).not.toBeNull();
  });

  it('brings back a record marked deleted since (it took a new change_seq)', async () => {
    const kind = `tx-${randomUUID()}`;
    const pages = [page(kind, { a: '1', b: '1' }), page(kind, { c: '1', d: '1' })];
    await syncPages(pages);
    await given.database.pool.query(`update records set deleted_at = now(), change_seq = nextval('records_change_seq') where kind = $1 and key = 'd'`, [kind]);

    const { stored } = await syncPages(pages);

    expect(stored[1]!.counts).toEqual({ new: 0, updated: 1, unchanged: 1 });
    const deleted = await given.database.pool.query(`select count(*)::int as n from records where kind = $1 and deleted_at is not null`, [kind]);
    expect(deleted.rows[0]).toEqual({ n: 0 });
  });

  it('proves a page once found all unchanged while nothing of its kind changed since, and not once something did', async () => {
    const kind = `tx-${randomUUID()}`;
    const [first, second] = [page(kind, { a: '1' }), page(kind, { b: '1' })];
    await syncPages([first, second]);
    // Found all unchanged: the envelope keeps the kind's highest change_seq.
    const checked = await syncPages([second, first]);
    expect((await envelopeProofs(checked.runId))[0]).toMatchObject({ from: null, records: 1 });

    const quiet = await syncPages([first, second]);
    expect(quiet.stored[1]!.records).toBeUndefined();

    await syncPages([page(kind, { z: '1' })], 'another-query');
    const after = await syncPages([first, second]);
    expect(after.stored[1]!.records).toBeDefined();
    expect(after.stored[1]!.counts).toEqual({ new: 0, updated: 0, unchanged: 1 });
  });

  it('proves nothing under another derivation (the config that turns a body into records changed)', async () => {
    const kind = `tx-${randomUUID()}`;
    await syncPages([page(kind, { a: '1' }), page(kind, { b: '1' })]);

    const { stored } = await syncPages([page(kind, { a: '1' }, 'd2'), page(kind, { b: '1' }, 'd2')]);

    expect(stored[1]!.records).toBeDefined();
    expect(stored[1]!.counts).toEqual({ new: 0, updated: 0, unchanged: 1 });
  });

  it('keeps no proof for a page whose records did not all reach the table as sent', async () => {
    const kind = `tx-${randomUUID()}`;
    const duplicated: PageToStore = { ...pageOf(kind, [{ hash: 'a', value: '1' }, { hash: 'a', value: '2' }], 'hash'), derivation: 'd1' };
    const { runId } = await syncPages([duplicated]);
    expect(await envelopeProofs(runId)).toEqual([{ from: null, to: null, records: null }]);
  });

  it('keeps no proof for a page with records both changed and unchanged', async () => {
    const kind = `tx-${randomUUID()}`;
    await syncPages([page(kind, { a: '1', b: '1' })]);
    const { runId } = await syncPages([page(kind, { a: '1', b: '2' })]);
    expect(await envelopeProofs(runId)).toEqual([{ from: null, to: null, records: null }]);
  });

  it("keeps a run's first page's proof below the horizon its claim returned, reading none of its own; a later page reads one", async () => {
    const kind = `tx-${randomUUID()}`;
    await syncPages([page(kind, { a: '1', b: '1' })]);
    const { pages, sent, horizons } = pageWritesTelling(given.database.pool);
    const claims = new RunClaims(given.database.pool, new DatabaseClock(), horizons);
    const run = await claims.claim({ runKey: `proven-test/${randomUUID()}`, job: 'txs', source: 'explorer', queryIndex: 0, queryKey: 'k2', query: { q: null, params: {} } });

    await pages.storePage(run.id, 0, page(kind, { a: '1', b: '1' }), 'explorer');
    const firstPageSent = [...sent];
    await pages.storePage(run.id, 1, page(kind, { c: '1' }), 'explorer');

    expect(firstPageSent).toEqual([storePageLookingUpUnchanged.name]);
    expect(sent.slice(firstPageSent.length)).toContain(readChangeHorizon.name);
    const [firstProof] = await envelopeProofs(run.id);
    expect(firstProof).toMatchObject({ from: null, records: 2 });
    expect(firstProof!.to).not.toBeNull();
  });
});
