import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessTickHold } from '../../src/storage/InProcessTickHold.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';
import { waitFor } from '../support/waitFor.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

/** The backend holding the tick's in-process mark, if one does. */
async function markHolder(tickId: string): Promise<number | undefined> {
  const { rows } = await database.pool.query<{ pid: number }>(
    `select pid from pg_locks where locktype = 'advisory' and granted and objsubid = 2
      and classid::bigint = 7346112 and objid::bigint = (hashtext($1)::bigint & 4294967295)`,
    [tickId],
  );
  return rows[0]?.pid;
}

describe('InProcessTickHold', () => {
  it('holds the mark until released', async () => {
    const tickId = randomUUID();
    const hold = new InProcessTickHold(database.pool, tickId);
    await hold.take();
    expect(await markHolder(tickId)).toBeDefined();
    await hold.release();
    expect(await markHolder(tickId)).toBeUndefined();
  });

  it('takes the mark again on a new connection when its connection is lost, so that a live process is not taken for a gone one', async () => {
    const tickId = randomUUID();
    const hold = new InProcessTickHold(database.pool, tickId, 50);
    await hold.take();
    const first = await markHolder(tickId);
    expect(first).toBeDefined();
    await database.pool.query('select pg_terminate_backend($1)', [first]);

    const next = await waitFor('the mark held on another connection', async () => {
      const holder = await markHolder(tickId);
      return holder !== undefined && holder !== first ? holder : undefined;
    });
    expect(next).not.toBe(first);
    await hold.release();
    expect(await markHolder(tickId)).toBeUndefined();
  });
});
