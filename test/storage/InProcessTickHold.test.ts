import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessTickHold } from '../../src/storage/InProcessTickHold.js';
import { capturingLogger } from '../support/syncFixture.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';
import { hearUncaughtErrors } from '../support/uncaughtErrors.js';
import { waitFor } from '../support/waitFor.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

/** The backend holding the tick's in-process mark, if one does. */
async function markHolder(tickId: string): Promise<number | undefined> {
  const { rows } = await database.pool.query<{ pid: number }>(
    `select pid from pg_locks where locktype = 'advisory' and granted and objsubid = 2 and database = (select oid from pg_database where datname = current_database())
      and classid::bigint = 7346112 and objid::bigint = (hashtext($1)::bigint & 4294967295)`,
    [tickId],
  );
  return rows[0]?.pid;
}

const messagesOf = (lines: string[]) => lines.map((line) => (JSON.parse(line) as { msg: string }).msg);

describe('InProcessTickHold', () => {
  it('holds the mark until released', async () => {
    const tickId = randomUUID();
    const hold = new InProcessTickHold(database.pool, tickId, { log: capturingLogger().logger });
    await hold.take();
    expect(await markHolder(tickId)).toBeDefined();
    await hold.release();
    expect(await markHolder(tickId)).toBeUndefined();
  });

  it('takes the mark again on a new connection when its connection is lost, saying so, so that a live process is not taken for a gone one', async () => {
    const uncaught = hearUncaughtErrors();
    const { logger, lines } = capturingLogger();
    try {
      const tickId = randomUUID();
      const hold = new InProcessTickHold(database.pool, tickId, { log: logger, retakeDelayMs: 50 });
      await hold.take();
      const first = await markHolder(tickId);
      await database.pool.query('select pg_terminate_backend($1)', [first]);

      await waitFor('the mark held on another connection', async () => {
        const holder = await markHolder(tickId);
        return holder !== undefined && holder !== first;
      });
      await hold.release();
      expect(await markHolder(tickId)).toBeUndefined();
      expect(messagesOf(lines)).toEqual(['lost the lock that marks this tick as run here; taking it again', 'holding the lock that marks this tick as run here again']);
      expect(uncaught.errors).toEqual([]);
    } finally {
      uncaught.stop();
    }
  });

  it('does not take the mark again while another session holds it, and is released without waiting for it', async () => {
    const tickId = randomUUID();
    const { logger, lines } = capturingLogger();
    const hold = new InProcessTickHold(database.pool, tickId, { log: logger, retakeDelayMs: 50 });
    await hold.take();
    const first = await markHolder(tickId);
    // Another session waits for the mark: Postgres hands it over as the hold's session ends, before the hold can try.
    const other = await database.pool.connect();
    try {
      const otherPid = (await other.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
      const otherTakes = other.query('select pg_advisory_lock(7346112, hashtext($1))', [tickId]);
      await waitFor('the other session waiting for the mark', async () => (await database.pool.query("select 1 from pg_stat_activity where pid = $1 and wait_event_type = 'Lock'", [otherPid])).rowCount === 1);
      await database.pool.query('select pg_terminate_backend($1)', [first]);
      await otherTakes;
      await waitFor('the hold telling of its loss', () => lines.length > 0);

      await hold.release();
      expect(await markHolder(tickId)).toBe(otherPid);
      expect(messagesOf(lines)).toEqual(['lost the lock that marks this tick as run here; taking it again']);
    } finally {
      other.release(true);
    }
  });
});
