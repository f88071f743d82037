import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { pageWriteMode, refreshScopeOf } from '../../../src/storage/pages/writeModes.js';
import type { WriteMode } from '../../../src/config/analytics/kindsSchema.js';
import { VERSIONS_LOCK_CLASS } from '../../../src/storage/pages/statements/takeVersionsLock.js';
import { pageOf } from '../../support/storedPages.js';
import { waitFor } from '../../support/waitFor.js';
import { givenRunStore } from '../../support/givenRunStore.js';

const given = givenRunStore();

interface Item {
  id: string;
  v: number;
}

/** One complete run of a query of this mode returning `items` (one page), swept as a complete full_refresh run is. */
async function runOf(mode: WriteMode, job: string, kind: string, items: Item[]): Promise<string> {
  const run = await given.store.claims.claim({ runKey: `${job}/${randomUUID()}`, job, source: 'music', queryIndex: 0, queryKey: 'k', query: { q: null, params: {} } });
  await given.store.pages.storePage(run.id, 0, { ...pageOf(kind, items as unknown as Record<string, unknown>[], 'id'), writeMode: pageWriteMode(mode, job, 'k') }, 'music');
  if (mode === 'full_refresh') await given.store.deletions.sweep(run.id, refreshScopeOf(job, 'k'));
  return run.id;
}

const recordsOf = async (kind: string) =>
  (
    await given.database.pool.query<{ key: string; v: number; deleted: boolean; change_seq: string }>(
      `select key, (payload->>'v')::int as v, deleted_at is not null as deleted, change_seq::text from records where kind = $1 order by key`,
      [kind],
    )
  ).rows;

describe('write mode full_refresh', () => {
  it('marks deleted what a complete run no longer returns, and revives it when a later run returns it again', async () => {
    const kind = `k${randomUUID().slice(0, 8)}`;
    await runOf('full_refresh', 'chart', kind, [{ id: 'a', v: 1 }, { id: 'b', v: 1 }, { id: 'c', v: 1 }]);
    await runOf('full_refresh', 'chart', kind, [{ id: 'a', v: 1 }, { id: 'b', v: 2 }]);
    const second = await recordsOf(kind);
    expect(second.map(({ key, v, deleted }) => ({ key, v, deleted }))).toEqual([
      { key: 'a', v: 1, deleted: false },
      { key: 'b', v: 2, deleted: false },
      { key: 'c', v: 1, deleted: true },
    ]);
    const runId = await runOf('full_refresh', 'chart', kind, [{ id: 'a', v: 1 }, { id: 'b', v: 2 }, { id: 'c', v: 1 }]);
    const third = await recordsOf(kind);
    expect(third.map(({ key, deleted }) => ({ key, deleted }))).toEqual([
      { key: 'a', deleted: false },
      { key: 'b', deleted: false },
      { key: 'c', deleted: false },
    ]);
    // The revival is a change: c moves past every earlier change; a and b, unchanged, keep theirs.
    expect(BigInt(third[2]!.change_seq)).toBeGreaterThan(BigInt(second[2]!.change_seq));
    expect(third.slice(0, 2).map((row) => row.change_seq)).toEqual(second.slice(0, 2).map((row) => row.change_seq));
    const { rows } = await given.database.pool.query<{ records_updated: number }>('select records_updated from sync_runs where id = $1', [runId]);
    expect(rows[0]!.records_updated).toBe(1);
  });

  it('does not mark deleted a record the run returned as a dead letter (records.onInvalid: skip)', async () => {
    const kind = `k${randomUUID().slice(0, 8)}`;
    await runOf('full_refresh', 'chart', kind, [{ id: 'a', v: 1 }, { id: 'b', v: 1 }]);
    // b comes back holding a lone surrogate, which jsonb cannot hold: kept as a dead letter, not stored.
    await runOf('full_refresh', 'chart', kind, [{ id: 'a', v: 1 }, { id: 'b', v: '\ud800' as unknown as number }]);
    expect((await recordsOf(kind)).map(({ key, v, deleted }) => ({ key, v, deleted }))).toEqual([
      { key: 'a', v: 1, deleted: false },
      { key: 'b', v: 1, deleted: false },
    ]);
  });

  it('counts the records a run marked deleted on the run, and marks nothing twice', async () => {
    const kind = `k${randomUUID().slice(0, 8)}`;
    await runOf('full_refresh', 'chart', kind, [{ id: 'a', v: 1 }, { id: 'b', v: 1 }, { id: 'c', v: 1 }]);
    const second = await runOf('full_refresh', 'chart', kind, [{ id: 'a', v: 1 }]);
    const before = await recordsOf(kind);
    const third = await runOf('full_refresh', 'chart', kind, [{ id: 'a', v: 1 }]);
    const { rows } = await given.database.pool.query<{ id: string; records_deleted: number }>('select id, records_deleted from sync_runs where id = any($1::uuid[])', [[second, third]]);
    expect(Object.fromEntries(rows.map((row) => [row.id, row.records_deleted]))).toEqual({ [second]: 2, [third]: 0 });
    expect(await recordsOf(kind)).toEqual(before);
  });

  it('leaves the records of another scope (job and query) alone', async () => {
    const kind = `k${randomUUID().slice(0, 8)}`;
    await runOf('full_refresh', 'chart-a', kind, [{ id: 'a', v: 1 }]);
    await runOf('full_refresh', 'chart-b', kind, [{ id: 'b', v: 1 }]);
    await runOf('full_refresh', 'chart-b', kind, [{ id: 'b', v: 1 }]);
    expect((await recordsOf(kind)).map(({ key, deleted }) => ({ key, deleted }))).toEqual([
      { key: 'a', deleted: false },
      { key: 'b', deleted: false },
    ]);
  });
});

describe('write mode merge', () => {
  it('keeps a record a later run no longer returns, as it is', async () => {
    const kind = `k${randomUUID().slice(0, 8)}`;
    await runOf('merge', 'search', kind, [{ id: 'a', v: 1 }, { id: 'b', v: 1 }]);
    await runOf('merge', 'search', kind, [{ id: 'a', v: 2 }]);
    expect((await recordsOf(kind)).map(({ key, v, deleted }) => ({ key, v, deleted }))).toEqual([
      { key: 'a', v: 2, deleted: false },
      { key: 'b', v: 1, deleted: false },
    ]);
  });
});

describe('write mode append', () => {
  it('keeps every changed version with valid_from and valid_to, the one in force open', async () => {
    const kind = `k${randomUUID().slice(0, 8)}`;
    await runOf('append', 'prices', kind, [{ id: 'a', v: 1 }, { id: 'b', v: 1 }]);
    await runOf('append', 'prices', kind, [{ id: 'a', v: 2 }, { id: 'b', v: 1 }]);
    await runOf('append', 'prices', kind, [{ id: 'a', v: 3 }, { id: 'b', v: 1 }]);
    const { rows } = await given.database.pool.query<{ key: string; v: number; open: boolean; ordered: boolean }>(
      `select key, (payload->>'v')::int as v, valid_to is null as open, valid_to is null or valid_to >= valid_from as ordered
       from record_versions where kind = $1 order by key, change_seq`,
      [kind],
    );
    expect(rows).toEqual([
      { key: 'a', v: 1, open: false, ordered: true },
      { key: 'a', v: 2, open: false, ordered: true },
      { key: 'a', v: 3, open: true, ordered: true },
      { key: 'b', v: 1, open: true, ordered: true },
    ]);
    expect((await recordsOf(kind)).map(({ key, v }) => ({ key, v }))).toEqual([
      { key: 'a', v: 3 },
      { key: 'b', v: 1 },
    ]);
  });

  it('keeps one version open when two runs store the same key at once, one waiting for the other’s versions lock', async () => {
    const kind = `k${randomUUID().slice(0, 8)}`;
    const holder = await given.database.pool.connect();
    try {
      await holder.query("select pg_advisory_lock($1, hashtext('music/' || $2))", [VERSIONS_LOCK_CLASS, kind]);
      const stores = ['one', 'two'].map(async (job, index) => {
        const run = await given.store.claims.claim({ runKey: `${job}/${randomUUID()}`, job, source: 'music', queryIndex: 0, queryKey: 'k', query: { q: null, params: {} } });
        return given.store.pages.storePage(run.id, 0, { ...pageOf(kind, [{ id: 'x', v: index + 1 }], 'id'), writeMode: pageWriteMode('append', job, 'k') }, 'music');
      });
      await waitFor('both pages to wait for the kind\'s versions lock', async () => {
        const { rows } = await given.database.pool.query<{ n: number }>(
          `select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())`,
        );
        return rows[0]!.n === 2;
      });
      await holder.query("select pg_advisory_unlock($1, hashtext('music/' || $2))", [VERSIONS_LOCK_CLASS, kind]);
      await Promise.all(stores);
    } finally {
      holder.release();
    }
    const { rows } = await given.database.pool.query<{ open: number; versions: number }>(
      `select count(*) filter (where valid_to is null)::int as open, count(*)::int as versions from record_versions where kind = $1 and key = 'x'`,
      [kind],
    );
    expect(rows[0]).toEqual({ open: 1, versions: 2 });
  });

  it('keeps no version for a merge query', async () => {
    const kind = `k${randomUUID().slice(0, 8)}`;
    await runOf('merge', 'prices', kind, [{ id: 'a', v: 1 }]);
    await runOf('merge', 'prices', kind, [{ id: 'a', v: 2 }]);
    expect((await given.database.pool.query('select 1 from record_versions where kind = $1', [kind])).rowCount).toBe(0);
  });
});

describe('change_seq', () => {
  it('is drawn by every insert, change and deletion, and left alone by an unchanged record', async () => {
    const kind = `k${randomUUID().slice(0, 8)}`;
    await runOf('full_refresh', 'feed', kind, [{ id: 'a', v: 1 }, { id: 'b', v: 1 }]);
    const first = await recordsOf(kind);
    await runOf('full_refresh', 'feed', kind, [{ id: 'a', v: 2 }]);
    const second = await recordsOf(kind);
    expect(BigInt(second[0]!.change_seq)).toBeGreaterThan(BigInt(first[1]!.change_seq));
    expect(BigInt(second[1]!.change_seq)).toBeGreaterThan(BigInt(first[1]!.change_seq));
    await runOf('full_refresh', 'feed', kind, [{ id: 'a', v: 2 }]);
    expect(await recordsOf(kind)).toEqual(second);
  });
});
