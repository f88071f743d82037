import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../../src/sync/syncQuery.js';
import { givenListApi, listQuery, syncList } from '../support/listSync.js';

interface Item {
  id: string;
  v: number;
}

const given = givenListApi<Item>();

/** A query reading the list at `path` two items a page into `kind`; each call is one sync run of it. */
function syncer(kind: string, path: string) {
  const { query } = listQuery(given.api, path, `list-${kind}`, kind);
  return (items: Item[]): Promise<RunSummary> => syncList(given, query, path, items);
}

const items = (count: number): Item[] => Array.from({ length: count }, (_, n) => ({ id: `i${n}`, v: 1 }));

const recordRows = async (kind: string) =>
  (await given.database.pool.query<{ key: string; v: number; xmin: string }>(`select key, (payload->>'v')::int as v, xmin::text from records where kind = $1 order by key`, [kind])).rows;

/** Per page of the run: the change_seq range its envelope's proof names (null for none, or a proof by the kind's highest change_seq). */
const proofRanges = async (runId: string) =>
  (await given.database.pool.query<{ range: string | null }>(`select proof_seq_from || '-' || proof_seq_to as range from envelopes where run_id = $1 order by page_seq`, [runId])).rows.map((row) => row.range);

describe('an unchanged re-sync', () => {
  it('stores the pages an earlier run wrote in full as proven: the same proofs, no record rewritten', async () => {
    const kind = `pv${randomUUID().slice(0, 8)}`;
    const sync = syncer(kind, `/${kind}`);
    const first = await sync(items(8));
    const before = await recordRows(kind);

    const again = await sync(items(8));

    expect(again).toMatchObject({ status: 'succeeded', pages: 5, counts: { new: 0, updated: 0, unchanged: 8 } });
    expect(await recordRows(kind)).toEqual(before);
    // The first page is checked record by record; from the second on, each carries the first run's proof on.
    const [firstRanges, againRanges] = [await proofRanges(first.runId), await proofRanges(again.runId)];
    expect(againRanges.slice(1, 4)).toEqual(firstRanges.slice(1, 4));
    expect(againRanges.slice(1, 4).every((range) => range !== null)).toBe(true);
  });

  it('rewrites a record another query changed since the last run, and counts it updated', async () => {
    const kind = `pv${randomUUID().slice(0, 8)}`;
    const sync = syncer(kind, `/${kind}`);
    const other = syncer(kind, `/${kind}-other`);
    await sync(items(12));
    // On the last page: by then the pages before were proven, so its records are serialised only once its proof fails.
    await other([{ id: 'i11', v: 99 }]);

    const again = await sync(items(12));

    expect(again).toMatchObject({ status: 'succeeded', counts: { new: 0, updated: 1, unchanged: 11 } });
    expect((await recordRows(kind)).map(({ key, v }) => `${key}=${v}`).sort()).toEqual(items(12).map(({ id, v }) => `${id}=${v}`).sort());
  });
});
