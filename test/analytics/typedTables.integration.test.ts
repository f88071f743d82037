import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { applyKindViews } from '../../src/analytics/kindViews.js';
import { kindsSectionSchema, type KindConfig, type WriteMode } from '../../src/config/analytics/kindsSchema.js';
import { pageWriteMode, refreshScopeOf } from '../../src/storage/pages/writeModes.js';
import { givenRunStore } from '../support/givenRunStore.js';
import { pageOf } from '../support/storedPages.js';
import { inTransaction } from '../../src/storage/database/transaction.js';
import { rekeyRecords } from '../../src/storage/records/statements/rekeyRecords.js';
import { takeChangeTicket } from '../../src/storage/records/statements/takeChangeTicket.js';

const given = givenRunStore();

interface Item {
  id: string;
  v: string;
}

const kindsOf = (section: unknown): Record<string, KindConfig> => kindsSectionSchema.parse(section);
/** A views' schema of the test's own, and a kind with a numeric column `v`. */
const setting = () => {
  const kind = `k${randomUUID().slice(0, 8)}`;
  return { kind, analytics: { schema: `a_${randomUUID().slice(0, 8)}` }, kinds: kindsOf({ [kind]: { columns: { v: { path: 'v', type: 'numeric' } } } }) };
};

/** One complete run of a query of this mode returning `items` (one page), swept as a complete full_refresh run is. */
async function runOf(mode: WriteMode, job: string, kind: string, items: Item[]): Promise<void> {
  const run = await given.store.claims.claim({ runKey: `${job}/${randomUUID()}`, job, source: 'music', queryIndex: 0, queryKey: 'k', query: { q: null, params: {} } });
  await given.store.pages.storePage(run.id, 0, { ...pageOf(kind, items as unknown as Record<string, unknown>[], 'id'), writeMode: pageWriteMode(mode, job, 'k') }, 'music');
  if (mode === 'full_refresh') await given.store.deletions.sweep(run.id, refreshScopeOf(job, 'k'));
}

const rowsOf = async (relation: string, columns = 'key, v', order = 'key'): Promise<Record<string, unknown>[]> => (await given.database.pool.query<Record<string, unknown>>(`select ${columns} from ${relation} order by ${order}`)).rows;

describe("a kind's typed table", () => {
  it('holds the records of a merge query as they are written: new, changed, and numbers exact', async () => {
    const { kind, analytics, kinds } = setting();
    await applyKindViews(given.database.pool, kinds, analytics);
    await runOf('merge', 'j', kind, [{ id: 'a', v: '1' }, { id: 'b', v: '12345678901234567890.5' }]);
    await runOf('merge', 'j', kind, [{ id: 'a', v: '2' }, { id: 'c', v: 'not a number' }]);

    expect(await rowsOf(`${analytics.schema}_typed.${kind}`)).toEqual([
      { key: 'a', v: '2' },
      { key: 'b', v: '12345678901234567890.5' },
      { key: 'c', v: null },
    ]);
    expect(await rowsOf(`${analytics.schema}.${kind}`)).toEqual(await rowsOf(`${analytics.schema}_typed.${kind}`));
  });

  it('marks deleted what a full_refresh run no longer returned: gone from the view, in the _changes view with deleted_at', async () => {
    const { kind, analytics, kinds } = setting();
    await applyKindViews(given.database.pool, kinds, analytics);
    await runOf('full_refresh', 'chart', kind, [{ id: 'a', v: '1' }, { id: 'b', v: '1' }]);
    await runOf('full_refresh', 'chart', kind, [{ id: 'a', v: '1' }]);

    expect(await rowsOf(`${analytics.schema}.${kind}`)).toEqual([{ key: 'a', v: '1' }]);
    expect(await rowsOf(`${analytics.schema}.${kind}_changes`, 'key, v, deleted_at is not null as deleted')).toEqual([
      { key: 'a', v: '1', deleted: false },
      { key: 'b', v: '1', deleted: true },
    ]);
  });

  it('holds the version in force of each record of an append query, the history view every version', async () => {
    const { kind, analytics, kinds } = setting();
    await applyKindViews(given.database.pool, kinds, analytics);
    await runOf('append', 'prices', kind, [{ id: 'a', v: '1' }]);
    await runOf('append', 'prices', kind, [{ id: 'a', v: '2' }]);

    expect(await rowsOf(`${analytics.schema}.${kind}`)).toEqual([{ key: 'a', v: '2' }]);
    expect(await rowsOf(`${analytics.schema}.${kind}_history`, 'key, v, valid_to is null as current', 'key, valid_from')).toEqual([
      { key: 'a', v: '1', current: false },
      { key: 'a', v: '2', current: true },
    ]);
  });

  it('follows a rekey: the record under its new key, none under the old one', async () => {
    const { kind, analytics, kinds } = setting();
    await applyKindViews(given.database.pool, kinds, analytics);
    await runOf('merge', 'j', kind, [{ id: 'old', v: '1' }]);

    await inTransaction(given.database.pool, async (client) => {
      await client.query(takeChangeTicket.with({}));
      await client.query(rekeyRecords.with({ source: 'music', kind, oldKeys: ['old'], newKeys: ['new'] }));
    });

    expect(await rowsOf(`${analytics.schema}.${kind}`)).toEqual([{ key: 'new', v: '1' }]);
  });

  it('is emptied with records when they are truncated', async () => {
    const { kind, analytics, kinds } = setting();
    await applyKindViews(given.database.pool, kinds, analytics);
    await runOf('merge', 'j', kind, [{ id: 'a', v: '1' }]);
    const client = await given.database.pool.connect();
    try {
      await client.query('begin');
      await client.query('truncate records');
      expect((await client.query(`select count(*)::int as n from ${analytics.schema}_typed.${kind}`)).rows).toEqual([{ n: 0 }]);
    } finally {
      await client.query('rollback');
      client.release();
    }
  });

  it("is made from the kind's stored records when the config first gives it columns, and made anew when they change", async () => {
    const { kind, analytics } = setting();
    await applyKindViews(given.database.pool, kindsOf({ [kind]: {} }), analytics);
    await runOf('merge', 'j', kind, [{ id: 'a', v: '1' }, { id: 'b', v: 'x' }]);

    const first = await applyKindViews(given.database.pool, kindsOf({ [kind]: { columns: { v: { path: 'v', type: 'numeric' } } } }), analytics);
    expect(first.typedTablesMade).toEqual([kind]);
    expect(await rowsOf(`${analytics.schema}.${kind}`)).toEqual([
      { key: 'a', v: '1' },
      { key: 'b', v: null },
    ]);

    const retyped = await applyKindViews(given.database.pool, kindsOf({ [kind]: { columns: { v: { path: 'v', type: 'text' } } } }), analytics);
    expect(retyped.typedTablesMade).toEqual([kind]);
    expect(await rowsOf(`${analytics.schema}.${kind}`)).toEqual([
      { key: 'a', v: '1' },
      { key: 'b', v: 'x' },
    ]);
    await runOf('merge', 'j', kind, [{ id: 'c', v: 'y' }]);
    expect(await rowsOf(`${analytics.schema}.${kind}`, 'key')).toEqual([{ key: 'a' }, { key: 'b' }, { key: 'c' }]);
  });

  it('is dropped, and its trigger with it, when the kind no longer has columns: its views read the records again', async () => {
    const { kind, analytics, kinds } = setting();
    await applyKindViews(given.database.pool, kinds, analytics);
    await runOf('merge', 'j', kind, [{ id: 'a', v: '1' }]);

    await applyKindViews(given.database.pool, kindsOf({ [kind]: {} }), analytics);

    expect((await given.database.pool.query(`select to_regclass($1) as table`, [`${analytics.schema}_typed.${kind}`])).rows).toEqual([{ table: null }]);
    const triggers = await given.database.pool.query(`select tgname from pg_trigger where tgrelid = 'records'::regclass and tgname like $1`, [`feedsync_${analytics.schema}_typed_%`]);
    expect(triggers.rows).toEqual([]);
    expect(await rowsOf(`${analytics.schema}.${kind}`, 'key')).toEqual([{ key: 'a' }]);
  });
});

describe("a kind's indexes", () => {
  const indexesOf = async (schema: string) =>
    (await given.database.pool.query<{ indexdef: string }>(`select indexdef from pg_indexes where schemaname = $1 and indexname like '%_idx' order by indexname`, [schema])).rows.map((row) =>
      row.indexdef.replace(/^.* USING btree /, ''),
    );

  it('are made on the typed table as the config lists them, and dropped when it no longer does', async () => {
    const { kind, analytics } = setting();
    const columns = { v: { path: 'v', type: 'numeric' }, w: { path: 'w', type: 'text' } };
    const made = await applyKindViews(given.database.pool, kindsOf({ [kind]: { columns, indexes: ['v', ['w', 'changed_at']] } }), analytics, { indexes: true });
    expect(made.indexes.created.sort()).toEqual([`${kind}_v_idx`, `${kind}_w_changed_at_idx`]);
    expect(await indexesOf(`${analytics.schema}_typed`)).toEqual(['(v)', '(w, changed_at)']);

    const kinds = kindsOf({ [kind]: { columns, indexes: [['w', 'changed_at']] } });
    const starting = await applyKindViews(given.database.pool, kinds, analytics);
    expect(starting.indexesPending).toEqual({ created: [], dropped: [`${kind}_v_idx`] });
    expect(await indexesOf(`${analytics.schema}_typed`)).toEqual(['(v)', '(w, changed_at)']);
    const migrated = await applyKindViews(given.database.pool, kinds, analytics, { indexes: true });
    expect(migrated.indexes).toEqual({ created: [], dropped: [`${kind}_v_idx`] });
    expect(await indexesOf(`${analytics.schema}_typed`)).toEqual(['(w, changed_at)']);
  });

  it('are made anew, concurrently, when a build left one invalid', async () => {
    const { kind, analytics } = setting();
    const kinds = kindsOf({ [kind]: { columns: { v: { path: 'v', type: 'numeric' } }, indexes: ['v'] } });
    await applyKindViews(given.database.pool, kinds, analytics, { indexes: true });
    await runOf('merge', 'j', kind, [{ id: 'a', v: '1' }]);
    const index = `${analytics.schema}_typed.${kind}_v_idx`;
    await given.database.pool.query(`drop index ${index}`);
    // A concurrent build that fails leaves its index behind, invalid.
    await expect(given.database.pool.query(`create index concurrently ${kind}_v_idx on ${analytics.schema}_typed.${kind} ((v / 0))`)).rejects.toThrow(/division by zero/);

    const applied = await applyKindViews(given.database.pool, kinds, analytics, { indexes: true });

    expect(applied.indexes.created).toEqual([`${kind}_v_idx`]);
    const { rows } = await given.database.pool.query(`select indisvalid as valid, pg_get_indexdef(indexrelid) like '%(v)' as on_v from pg_index where indexrelid = $1::regclass`, [index]);
    expect(rows).toEqual([{ valid: true, on_v: true }]);
  });

  it('serve a lookup on their column', async () => {
    const { kind, analytics } = setting();
    await applyKindViews(given.database.pool, kindsOf({ [kind]: { columns: { v: { path: 'v', type: 'numeric' } }, indexes: ['v'] } }), analytics);
    const client = await given.database.pool.connect();
    try {
      await client.query('set enable_seqscan = off');
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(`explain select * from ${analytics.schema}.${kind} where v between 1 and 2`);
      expect(rows.map((row) => row['QUERY PLAN']).join('\n')).toMatch(new RegExp(`Index Scan using ${kind}_v_idx|Bitmap Index Scan on ${kind}_v_idx`));
    } finally {
      client.release();
    }
  });
});
