import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { RecordCounts } from '../../../../src/storage/records/recordCounts.js';
import { openRunStore } from '../../../../src/storage/runStore.js';
import { pageOf } from '../../../support/storedPages.js';
import { createTestDatabase, type TestDatabase } from '../../../support/testDatabase.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());
beforeEach(() => database.pool.query('TRUNCATE records'));

/** Stores the items as the one page of a run with this id, as a sync does; returns what the upsert did. */
async function upsertRecords(runId: string, items: { id: string; n: number }[]): Promise<RecordCounts> {
  const store = openRunStore(database.db);
  await store.claims.claim({ id: runId, runKey: `record-store-test/${runId}`, job: 'artists', source: 'music', queryIndex: 0, queryKey: 'k', query: { q: null, params: {} } });
  return (await store.pages.storePage(runId, 0, pageOf('artist', items, 'id'), 'music')).counts;
}

async function rowVersions(): Promise<Map<string, string>> {
  const { rows } = await database.pool.query<{ key: string; xmin: string }>('SELECT key, xmin::text FROM records');
  return new Map(rows.map((row) => [row.key, row.xmin]));
}

describe('storePage: the records upsert of a stored page', () => {
  it('inserts unseen records and counts them as new', async () => {
    const counts = await upsertRecords(randomUUID(), [{ id: 'a', n: 1 }, { id: 'b', n: 2 }]);
    expect(counts).toEqual({ new: 2, updated: 0, unchanged: 0 });
    const { rows } = await database.pool.query('SELECT key, payload FROM records ORDER BY key');
    expect(rows).toEqual([{ key: 'a', payload: { id: 'a', n: 1 } }, { key: 'b', payload: { id: 'b', n: 2 } }]);
  });

  it('does not rewrite a record whose payload is unchanged', async () => {
    await upsertRecords(randomUUID(), [{ id: 'a', n: 1 }]);
    const before = await rowVersions();
    const counts = await upsertRecords(randomUUID(), [{ id: 'a', n: 1 }]);
    expect(counts).toEqual({ new: 0, updated: 0, unchanged: 1 });
    expect(await rowVersions()).toEqual(before);
  });

  it('updates a changed record and keeps its first-seen run', async () => {
    const first = randomUUID();
    const second = randomUUID();
    await upsertRecords(first, [{ id: 'a', n: 1 }]);
    const counts = await upsertRecords(second, [{ id: 'a', n: 2 }]);
    expect(counts).toEqual({ new: 0, updated: 1, unchanged: 0 });
    const { rows } = await database.pool.query('SELECT payload, first_seen_run_id, last_changed_run_id FROM records');
    expect(rows).toEqual([{ payload: { id: 'a', n: 2 }, first_seen_run_id: first, last_changed_run_id: second }]);
  });

  it('keeps the last of records repeated within one page', async () => {
    const counts = await upsertRecords(randomUUID(), [{ id: 'a', n: 1 }, { id: 'a', n: 3 }]);
    expect(counts.new).toBe(1);
    const { rows } = await database.pool.query('SELECT payload FROM records');
    expect(rows).toEqual([{ payload: { id: 'a', n: 3 } }]);
  });

  it('stores nothing for an empty page', async () => {
    expect(await upsertRecords(randomUUID(), [])).toEqual({ new: 0, updated: 0, unchanged: 0 });
  });
});
