import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../../src/storage/database/transaction.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';
import { hearUncaughtErrors } from '../../support/uncaughtErrors.js';
import { waitFor } from '../../support/waitFor.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

describe('inTransaction', () => {
  it('fails a transaction whose connection is lost under way with the loss, and the pool goes on with a new connection', async () => {
    // A loss nobody hears is an 'error' event thrown from the socket: an uncaught exception.
    const uncaught = hearUncaughtErrors();
    try {
      let pid: number | undefined;
      let ended: Promise<unknown> | undefined;
      const running = inTransaction(database.pool, async (client) => {
        // Not events.once: it listens for 'error' too, which would hear the loss itself.
        ended = new Promise((resolve) => (client as pg.PoolClient).once('end', resolve));
        pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
        await client.query('select pg_sleep(30)');
      });
      // Heard from the start: the loss may reach it before pg_terminate_backend's own answer reaches the test.
      const failed = expect(running).rejects.toThrow(/terminating connection|Connection terminated/);
      await waitFor('the transaction under way', async () => pid !== undefined && (await database.pool.query("select 1 from pg_stat_activity where pid = $1 and query like 'select pg_sleep%'", [pid])).rowCount === 1);
      await database.pool.query('select pg_terminate_backend($1)', [pid]);

      await failed;
      // The client emits the loss as an 'error' as its connection ends, and its own 'end' on the next tick; thrown unheard, the error stops it before that.
      await Promise.race([ended, uncaught.first]);
      expect(uncaught.errors).toEqual([]);
      const { rows } = await database.pool.query<{ one: number }>('select 1 as one');
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      uncaught.stop();
    }
  });
});
