import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import type { Config } from '../../src/config/schema.js';
import { joinKeyParts } from '../../src/paging/compositeKey.js';
import { storedKey } from '../../src/storage/records/storedKey.js';
import { rekeyCompositeKeys } from '../../src/sync/rekeyCompositeKeys.js';
import { capturingLogger } from '../support/syncFixture.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

/** A config whose job `pairs` writes `kind` of source `music` with `key`. */
function configOf(kind: string, key: string | string[]): Config {
  return parseConfig(
    {
      sources: { music: { baseUrl: 'http://127.0.0.1:9', apiKey: 'rekey-test-key', path: '/2.0/' } },
      jobs: [{ name: 'pairs', source: 'music', records: { path: 'items', kind, key }, queries: [{ q: 'Abba' }] }],
    },
    'test',
    {},
  );
}

/** A kind of the test's own, with these records stored as the release before wrote them (keys plainly joined), listed for rekeying. */
async function storedBefore(records: { key: string; payload: object }[]): Promise<string> {
  const kind = `pair_${randomUUID().slice(0, 8)}`;
  for (const { key, payload } of records) {
    await database.pool.query(
      `insert into records (source, kind, key, payload, content_hash, first_seen_run_id, last_changed_run_id) values ('music', $1, $2, $3, 'h', gen_random_uuid(), gen_random_uuid())`,
      [kind, key, JSON.stringify(payload)],
    );
  }
  await database.pool.query(`insert into composite_key_rekeys (source, kind) values ('music', $1)`, [kind]);
  return kind;
}

async function recordsOf(kind: string) {
  const { rows } = await database.pool.query<{ key: string; deleted: boolean; seq: string }>(`select key, deleted_at is not null as deleted, change_seq::text as seq from records where kind = $1 order by key`, [kind]);
  return rows;
}

const stillListed = async (kind: string) => (await database.pool.query('select 1 from composite_key_rekeys where kind = $1', [kind])).rowCount === 1;

describe('rekeyCompositeKeys', () => {
  it('moves a record whose part held a "|" to its escaped key, leaving a deletion at the old key with a newer change_seq', async () => {
    const kind = await storedBefore([{ key: 'a|b|c', payload: { id: 'a|b', v: 'c' } }]);
    const before = await recordsOf(kind);
    await rekeyCompositeKeys(database.pool, configOf(kind, ['id', 'v']), capturingLogger().logger);
    const after = await recordsOf(kind);
    expect(after.map(({ key, deleted }) => ({ key, deleted }))).toEqual([
      { key: 'a\\|b|c', deleted: false },
      { key: 'a|b|c', deleted: true },
    ]);
    expect(after.every((row) => BigInt(row.seq) > BigInt(before[0]!.seq))).toBe(true);
    expect(await stillListed(kind)).toBe(false);
  });

  it('leaves keys whose parts held neither "|" nor "\\" as they are', async () => {
    const kind = await storedBefore([{ key: 'a|b', payload: { id: 'a', v: 'b' } }]);
    const before = await recordsOf(kind);
    await rekeyCompositeKeys(database.pool, configOf(kind, ['id', 'v']), capturingLogger().logger);
    expect(await recordsOf(kind)).toEqual(before);
  });

  it('takes a $query part from what the old key leaves around the parts the payload gives', async () => {
    const kind = await storedBefore([{ key: 'AC|DC|t1', payload: { id: 't1' } }]);
    await rekeyCompositeKeys(database.pool, configOf(kind, ['$query', 'id']), capturingLogger().logger);
    expect((await recordsOf(kind)).filter((row) => !row.deleted).map((row) => row.key)).toEqual(['AC\\|DC|t1']);
  });

  it('moves the versions and full_refresh keys of a moved record with it', async () => {
    const kind = await storedBefore([{ key: 'x\\y|z', payload: { id: 'x\\y', v: 'z' } }]);
    await database.pool.query(`insert into record_versions (source, kind, key, payload, content_hash, change_seq, run_id) values ('music', $1, 'x\\y|z', '{}', 'h', 1, gen_random_uuid())`, [kind]);
    await database.pool.query(`insert into full_refresh_keys (scope, source, kind, key, run_id) values ('s', 'music', $1, 'x\\y|z', gen_random_uuid())`, [kind]);
    await rekeyCompositeKeys(database.pool, configOf(kind, ['id', 'v']), capturingLogger().logger);
    expect((await database.pool.query('select key from record_versions where kind = $1', [kind])).rows).toEqual([{ key: 'x\\\\y|z' }]);
    expect((await database.pool.query('select key from full_refresh_keys where kind = $1', [kind])).rows).toEqual([{ key: 'x\\\\y|z' }]);
  });

  it('marks a record deleted at its old key when a later run stored it under its escaped key already', async () => {
    const kind = await storedBefore([
      { key: 'a|b|c', payload: { id: 'a|b', v: 'c' } },
      { key: 'a\\|b|c', payload: { id: 'a|b', v: 'c', newer: true } },
    ]);
    await rekeyCompositeKeys(database.pool, configOf(kind, ['id', 'v']), capturingLogger().logger);
    expect((await recordsOf(kind)).map(({ key, deleted }) => ({ key, deleted }))).toEqual([
      { key: 'a\\|b|c', deleted: false },
      { key: 'a|b|c', deleted: true },
    ]);
  });

  it("moves a long key's digest of its parts plainly joined to the digest of the escaped key", async () => {
    const id = `${'a'.repeat(1_100)}|b`;
    const kind = await storedBefore([{ key: storedKey(`${id}|c`), payload: { id, v: 'c' } }]);
    await rekeyCompositeKeys(database.pool, configOf(kind, ['id', 'v']), capturingLogger().logger);
    expect((await recordsOf(kind)).filter((row) => !row.deleted).map((row) => row.key)).toEqual([storedKey(joinKeyParts([id, 'c']))]);
  });

  it('leaves a deleted record at its old key', async () => {
    const kind = await storedBefore([{ key: 'a|b|c', payload: { id: 'a|b', v: 'c' } }]);
    await database.pool.query('update records set deleted_at = now() where kind = $1', [kind]);
    const before = await recordsOf(kind);
    await rekeyCompositeKeys(database.pool, configOf(kind, ['id', 'v']), capturingLogger().logger);
    expect(await recordsOf(kind)).toEqual(before);
  });

  it('leaves a key its payload does not give back, and says so once', async () => {
    const kind = await storedBefore([{ key: 'a|b|c', payload: { id: 'gone', v: 'c' } }]);
    const capture = capturingLogger();
    await rekeyCompositeKeys(database.pool, configOf(kind, ['id', 'v']), capture.logger);
    expect((await recordsOf(kind)).map(({ key, deleted }) => ({ key, deleted }))).toEqual([{ key: 'a|b|c', deleted: false }]);
    expect(capture.lines.filter((line) => line.includes('"unmatched":["a|b|c"]'))).toHaveLength(1);
  });

  it('ends a kind the config writes with a one-part key without touching it', async () => {
    const kind = await storedBefore([{ key: 'a|b|c', payload: { id: 'a|b|c' } }]);
    const before = await recordsOf(kind);
    await rekeyCompositeKeys(database.pool, configOf(kind, 'id'), capturingLogger().logger);
    expect(await recordsOf(kind)).toEqual(before);
    expect(await stillListed(kind)).toBe(false);
  });

  it('keeps a kind this config does not write listed, for a config that does', async () => {
    const kind = await storedBefore([{ key: 'a|b|c', payload: { id: 'a|b', v: 'c' } }]);
    await rekeyCompositeKeys(database.pool, configOf('another_kind', ['id', 'v']), capturingLogger().logger);
    expect(await stillListed(kind)).toBe(true);
  });
});
