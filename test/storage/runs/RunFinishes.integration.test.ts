import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openRunStore } from '../../../src/storage/runStore.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

describe('RunFinishes.finish', () => {
  it('puts the finish time on the database clock, like the start time, however far this machine’s clock is off', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 3_600_000, shouldAdvanceTime: true });
    try {
      const skewedStore = openRunStore(database.db);
      const run = await skewedStore.claims.claim({ runKey: `run-finishes-test/${randomUUID()}`, job: 'txs', source: 'explorer', queryIndex: 0, queryKey: 'k', query: { q: null, params: {} } });
      await skewedStore.finishes.finish(run.id, { status: 'succeeded' }, () => undefined, run);
      const { rows } = await database.pool.query<{ seconds: number }>('select extract(epoch from finished_at - started_at)::float8 as seconds from sync_runs where id = $1', [run.id]);
      expect(rows[0]!.seconds).toBeGreaterThanOrEqual(0);
      expect(rows[0]!.seconds).toBeLessThan(60);
    } finally {
      vi.useRealTimers();
    }
  });
});
