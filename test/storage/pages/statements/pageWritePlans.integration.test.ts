import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NamedStatement } from '../../../../src/storage/database/NamedStatement.js';
import { storePageInsertingRecords, storePageLookingUpUnchanged, storePageUpsertingRecords } from '../../../../src/storage/pages/statements/storePage.js';
import { storeUnchangedPage } from '../../../../src/storage/pages/statements/storeUnchangedPage.js';
import { createTestDatabase, type TestDatabase } from '../../../support/testDatabase.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  // Statistics taken between ticks: many runs, none unfinished, so the partial index of unfinished runs looks empty.
  await database.pool.query(
    `insert into sync_runs (run_key, job, source, query_index, query_key, query, status, finished_at)
      select 'plan-test/' || n, 'plans', 'explorer', 0, 'k' || n, '{}', 'succeeded', now() from generate_series(1, 2000) as n`,
  );
  await database.pool.query('analyze sync_runs');
});
afterAll(() => database.drop());

/** The generic plan Postgres caches for a prepared statement after its first executions. */
async function genericPlan(statement: NamedStatement<object>): Promise<string> {
  const client = await database.pool.connect();
  try {
    await client.query('set plan_cache_mode = force_generic_plan');
    await client.query(`prepare plan_under_test as ${statement.text}`);
    const nulls = statement.parameters.map(() => 'null').join(', ');
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(`explain execute plan_under_test(${nulls})`);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  } finally {
    client.release(true);
  }
}

describe('the statements that store a page', () => {
  for (const [name, statement] of [
    ['storePage (first sync)', storePageInsertingRecords],
    ['storePage (new or changed records)', storePageUpsertingRecords],
    ['storePage (re-sync)', storePageLookingUpUnchanged],
    ['storeUnchangedPage', storeUnchangedPage],
  ] as const) {
    it(`${name} finds its run by primary key in a generic plan made while no run was unfinished`, async () => {
      const plan = await genericPlan(statement as NamedStatement<object>);
      expect(plan).not.toContain('sync_runs_unfinished');
      expect(plan).toMatch(/Index Scan using sync_runs_pkey on sync_runs\b/);
    });
  }
});
