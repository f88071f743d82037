import { afterEach, describe, expect, it } from 'vitest';
import { FAST_PATHS } from '../../src/config/fastPaths.js';
import { givenListApi, listQuery, syncList } from '../support/listSync.js';

const given = givenListApi<{ id: string; v: number }>();

afterEach(() => {
  delete process.env.FEEDSYNC_FAST_PATHS_OFF;
});

/** A first sync, an unchanged re-sync and one with a record changed, of five records two a page, into a kind of its own: their counts and what is stored. */
async function syncs(kind: string) {
  const path = `/fast-paths/${kind}`;
  const { query } = listQuery(given.api, path, kind, kind);
  const items = Array.from({ length: 5 }, (_, n) => ({ id: `r${n}`, v: n }));
  const counts = [];
  for (const list of [items, items, items.map((item) => (item.id === 'r3' ? { ...item, v: 30 } : item))]) {
    const summary = await syncList(given, query, path, list);
    counts.push({ status: summary.status, ...summary.counts });
  }
  const { rows } = await given.database.pool.query(`select key, payload from records where kind = $1 order by key`, [kind]);
  return { counts, rows };
}

describe('with every fast path off', () => {
  it('stores the same records, counted the same, as with them on', async () => {
    const on = await syncs('fast_paths_on');
    process.env.FEEDSYNC_FAST_PATHS_OFF = Object.keys(FAST_PATHS).join(',');
    const off = await syncs('fast_paths_off');
    expect(off).toEqual(on);
    expect(on.counts).toEqual([
      { status: 'succeeded', new: 5, updated: 0, unchanged: 0 },
      { status: 'succeeded', new: 0, updated: 0, unchanged: 5 },
      { status: 'succeeded', new: 0, updated: 1, unchanged: 4 },
    ]);
  });
});
