import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyKindViews, ForeignViewError } from '../../src/analytics/kindViews.js';
import { checkKindViews } from '../../src/analytics/viewsCheck.js';
import { kindsSectionSchema, type KindConfig } from '../../src/config/analytics/kindsSchema.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

/** The kinds section as a config file would write it, parsed as the config is. */
const kindsOf = (section: unknown): Record<string, KindConfig> => kindsSectionSchema.parse(section);

/** A schema of this test's own, so tests never see each other's views. */
const schemaOf = () => ({ schema: `a_${randomUUID().slice(0, 8)}` });

async function insertRecords(kind: string, payloads: unknown[]): Promise<void> {
  for (const [index, payload] of payloads.entries()) {
    await database.pool.query(
      `insert into records (source, kind, key, payload, content_hash, first_seen_run_id, last_changed_run_id) values ('music', $1, $2, $3, 'h', gen_random_uuid(), gen_random_uuid())`,
      [kind, `k${index}`, JSON.stringify(payload)],
    );
  }
}

const columnTypes = async (schema: string, view: string) =>
  Object.fromEntries(
    (
      await database.pool.query<{ column_name: string; data_type: string }>(
        `select column_name, data_type from information_schema.columns where table_schema = $1 and table_name = $2 order by ordinal_position`,
        [schema, view],
      )
    ).rows.map((row) => [row.column_name, row.data_type]),
  );

describe('applyKindViews', () => {
  const track = (kind: string) => ({
    [kind]: {
      columns: {
        name: { path: 'name', type: 'text' },
        artist: { path: ['artist.name', 'artist'], type: 'text' },
        playcount: { path: 'playcount', type: 'bigint' },
        duration: { path: 'duration', type: 'integer' },
        rating: { path: 'rating', type: 'numeric' },
        streamable: { path: 'streamable', type: 'boolean' },
        played_at: { path: 'date.uts', type: 'timestamptz', from: 'unix_seconds' },
        released: { path: 'released', type: 'date' },
        updated: { path: 'updated', type: 'timestamptz' },
        tags: { path: 'tags', type: 'jsonb' },
      },
    },
  });

  it('creates a view per kind with the declared types, the key, the source, first_seen and changed_at', async () => {
    const kind = `t${randomUUID().slice(0, 8)}`;
    const analytics = schemaOf();
    await applyKindViews(database.pool, kindsOf(track(kind)), analytics);
    expect(await columnTypes(analytics.schema, kind)).toEqual({
      source: 'text',
      key: 'text',
      name: 'text',
      artist: 'text',
      playcount: 'bigint',
      duration: 'integer',
      rating: 'numeric',
      streamable: 'boolean',
      played_at: 'timestamp with time zone',
      released: 'date',
      updated: 'timestamp with time zone',
      tags: 'jsonb',
      first_seen: 'timestamp with time zone',
      changed_at: 'timestamp with time zone',
      change_seq: 'bigint',
    });
  });

  it('gives values as their types, and NULL for a value that does not cast, never an error', async () => {
    const kind = `t${randomUUID().slice(0, 8)}`;
    const analytics = schemaOf();
    await insertRecords(kind, [
      { name: 'River', artist: { name: 'Ana' }, playcount: '9007199254740993', duration: 215, rating: '4.25', streamable: '1', date: { uts: '1700000000' }, released: '2021-05-04', updated: '2024-01-02T03:04:05Z', tags: ['a'] },
      { name: 'Sea', artist: 'Bo', playcount: 'n/a', duration: '99999999999', rating: 'NaN?', streamable: 'maybe', date: { uts: 'soon' }, released: '2021-02-30', updated: 'yesterday', tags: null },
    ]);
    await applyKindViews(database.pool, kindsOf(track(kind)), analytics);
    const { rows } = await database.pool.query(`select * from ${analytics.schema}.${kind} order by key`);
    expect(rows[0]).toMatchObject({ name: 'River', artist: 'Ana', playcount: '9007199254740993', duration: 215, rating: '4.25', streamable: true, played_at: new Date(1_700_000_000_000), updated: new Date('2024-01-02T03:04:05Z'), tags: ['a'] });
    expect(rows[1]).toMatchObject({ name: 'Sea', artist: 'Bo', playcount: null, duration: null, rating: null, streamable: null, played_at: null, released: null, updated: null, tags: null });
  });

  it('replaces a view whose columns changed (one dropped, one retyped), in place of the old one', async () => {
    const kind = `t${randomUUID().slice(0, 8)}`;
    const analytics = schemaOf();
    await insertRecords(kind, [{ name: 'River', playcount: '12' }]);
    await applyKindViews(database.pool, kindsOf({ [kind]: { columns: { name: { path: 'name', type: 'text' }, playcount: { path: 'playcount', type: 'text' } } } }), analytics);
    const applied = await applyKindViews(database.pool, kindsOf({ [kind]: { columns: { playcount: { path: 'playcount', type: 'integer' } } } }), analytics);
    expect(applied.replaced).toContain(`${analytics.schema}.${kind}`);
    expect(await columnTypes(analytics.schema, kind)).toMatchObject({ playcount: 'integer' });
    expect(Object.keys(await columnTypes(analytics.schema, kind))).not.toContain('name');
    const { rows } = await database.pool.query(`select playcount from ${analytics.schema}.${kind}`);
    expect(rows).toEqual([{ playcount: 12 }]);
  });

  it('is idempotent: applied twice, the views are the same', async () => {
    const kind = `t${randomUUID().slice(0, 8)}`;
    const analytics = schemaOf();
    const kinds = kindsOf(track(kind));
    await applyKindViews(database.pool, kinds, analytics);
    const before = await columnTypes(analytics.schema, kind);
    const again = await applyKindViews(database.pool, kinds, analytics);
    expect(again.created).toEqual([]);
    expect(await columnTypes(analytics.schema, kind)).toEqual(before);
  });

  it('leaves an unchanged view alone, so a reader holding it open does not hold up a starting worker', async () => {
    const kind = `t${randomUUID().slice(0, 8)}`;
    const analytics = schemaOf();
    const kinds = kindsOf(track(kind));
    await applyKindViews(database.pool, kinds, analytics);
    const reader = new pg.Client({ connectionString: database.url });
    const applier = new pg.Pool({ connectionString: database.url, max: 1, options: '-c lock_timeout=5000' });
    await reader.connect();
    try {
      await reader.query('begin');
      await reader.query(`select * from ${analytics.schema}.${kind}`);
      const again = await applyKindViews(applier, kinds, analytics);
      expect(again).toEqual({
        created: [],
        replaced: [],
        dropped: [],
        unchanged: [kind, `${kind}_changes`, `${kind}_history`].map((name) => `${analytics.schema}.${name}`),
        typedTablesMade: [],
        indexes: { created: [], dropped: [] },
        indexesPending: { created: [], dropped: [] },
      });
    } finally {
      await reader.end();
      await applier.end();
    }
  });

  it("drops the views it made for a kind the config no longer declares, and never another's view", async () => {
    const [kept, gone] = [`t${randomUUID().slice(0, 8)}`, `t${randomUUID().slice(0, 8)}`];
    const analytics = schemaOf();
    await applyKindViews(database.pool, kindsOf({ [kept]: {}, [gone]: {} }), analytics);
    await database.pool.query(`create view ${analytics.schema}.mine as select 1 as one`);
    const applied = await applyKindViews(database.pool, kindsOf({ [kept]: {} }), analytics);
    expect(applied.dropped.sort()).toEqual([`${analytics.schema}.${gone}`, `${analytics.schema}.${gone}_changes`, `${analytics.schema}.${gone}_history`].sort());
    const { rows } = await database.pool.query<{ name: string }>(`select table_name as name from information_schema.views where table_schema = $1 order by 1`, [analytics.schema]);
    expect(rows.map((row) => row.name).sort()).toEqual([kept, `${kept}_changes`, `${kept}_history`, 'mine'].sort());
  });

  it('refuses to replace a view of the same name it did not make', async () => {
    const kind = `t${randomUUID().slice(0, 8)}`;
    const analytics = schemaOf();
    await database.pool.query(`create schema ${analytics.schema}`);
    await database.pool.query(`create view ${analytics.schema}.${kind} as select 1 as one`);
    await expect(applyKindViews(database.pool, kindsOf({ [kind]: {} }), analytics)).rejects.toThrow(ForeignViewError);
    expect(await columnTypes(analytics.schema, kind)).toEqual({ one: 'integer' });
  });

  it('reads a column at the path "null", which array-literal text would take for a NULL element', async () => {
    const kind = `t${randomUUID().slice(0, 8)}`;
    const analytics = schemaOf();
    await insertRecords(kind, [{ null: 'value', nested: { null: 7 } }]);
    await applyKindViews(database.pool, kindsOf({ [kind]: { columns: { at_null: { path: 'null', type: 'text' }, nested_null: { path: 'nested.null', type: 'integer' } } } }), analytics);
    expect((await database.pool.query(`select at_null, nested_null from ${analytics.schema}.${kind}`)).rows).toEqual([{ at_null: 'value', nested_null: 7 }]);
  });

  it('reads columns at paths holding quotes, braces, commas and backslashes, each segment taken as written', async () => {
    const kind = `t${randomUUID().slice(0, 8)}`;
    const analytics = schemaOf();
    const segments = [`it's`, 'say "hi"', '{a,b}', 'back\\slash', '\\"'];
    await insertRecords(kind, [Object.fromEntries(segments.map((segment, index) => [segment, `v${index}`]))]);
    const columns = Object.fromEntries(segments.map((segment, index) => [`c${index}`, { path: [segment], type: 'text' as const }]));
    await applyKindViews(database.pool, { [kind]: { columns, indexes: [] } }, analytics);
    const { rows } = await database.pool.query(`select c0, c1, c2, c3, c4 from ${analytics.schema}.${kind}`);
    expect(rows).toEqual([{ c0: 'v0', c1: 'v1', c2: 'v2', c3: 'v3', c4: 'v4' }]);
  });

  it('hides records marked deleted from the view, and shows them in the _changes view with deleted_at', async () => {
    const kind = `t${randomUUID().slice(0, 8)}`;
    const analytics = schemaOf();
    await insertRecords(kind, [{ name: 'a' }, { name: 'b' }]);
    await database.pool.query(`update records set deleted_at = now() where kind = $1 and key = 'k1'`, [kind]);
    await applyKindViews(database.pool, kindsOf({ [kind]: { columns: { name: { path: 'name', type: 'text' } } } }), analytics);
    expect((await database.pool.query(`select name from ${analytics.schema}.${kind}`)).rows).toEqual([{ name: 'a' }]);
    const changes = await database.pool.query(`select name, deleted_at is not null as deleted from ${analytics.schema}.${kind}_changes order by change_seq`);
    expect(changes.rows).toEqual([
      { name: 'a', deleted: false },
      { name: 'b', deleted: true },
    ]);
  });
});

describe('checkKindViews', () => {
  it('counts the values present at the path "null"', async () => {
    const kind = `t${randomUUID().slice(0, 8)}`;
    await insertRecords(kind, [{ null: '1' }, { null: 'x' }, {}]);
    const checks = await checkKindViews(database.pool, kindsOf({ [kind]: { columns: { n: { path: 'null', type: 'integer' } } } }));
    expect(checks).toEqual([{ kind, column: 'n', type: 'integer', present: 2, uncast: 1 }]);
  });


  it('counts per column the stored values that do not cast', async () => {
    const kind = `t${randomUUID().slice(0, 8)}`;
    await insertRecords(kind, [{ n: '1', when: '2024-01-01' }, { n: 'x', when: 'never' }, { n: 'y' }, {}]);
    const checks = await checkKindViews(database.pool, kindsOf({ [kind]: { columns: { n: { path: 'n', type: 'integer' }, when: { path: 'when', type: 'date' } } } }));
    expect(checks).toEqual([
      { kind, column: 'n', type: 'integer', present: 3, uncast: 2 },
      { kind, column: 'when', type: 'date', present: 2, uncast: 1 },
    ]);
  });
});
