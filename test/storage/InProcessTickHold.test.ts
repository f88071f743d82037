import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessTickHold } from '../../src/storage/InProcessTickHold.js';
import { holdInProcessTick } from '../../src/storage/statements/inProcessTickLock.js';
import { inProcessMarkHolder } from '../support/inProcessMark.js';
import { capturingLogger } from '../support/syncFixture.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';
import { hearUncaughtErrors } from '../support/uncaughtErrors.js';
import { waitFor } from '../support/waitFor.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const markHolder = (tickId: string) => inProcessMarkHolder(database.pool, tickId);

const messagesOf = (lines: string[]) => lines.map((line) => (JSON.parse(line) as { msg: string }).msg);
const LOST = 'lost the lock that marks this tick as run here; taking it again';
const HELD_AGAIN = 'holding the lock that marks this tick as run here again';

/** The test database's pool, its connections counted; each after the first waits for `gate` first. */
function gatedPool(gate: Promise<unknown>): Pick<pg.Pool, 'connect'> & { connections: () => number } {
  let connections = 0;
  return {
    connections: () => connections,
    connect: (async () => {
      connections += 1;
      if (connections > 1) await gate;
      return database.pool.connect();
    }) as pg.Pool['connect'],
  };
}

describe('InProcessTickHold', () => {
  it('holds the mark until released', async () => {
    const tickId = randomUUID();
    const hold = new InProcessTickHold(database.pool, tickId, { log: capturingLogger().logger });
    try {
      await hold.take();
      expect(await markHolder(tickId)).toBeDefined();
    } finally {
      await hold.release();
    }
    expect(await markHolder(tickId)).toBeUndefined();
  });

  it('takes the mark again on a new connection when its connection is lost, saying so, so that a live process is not taken for a gone one', async () => {
    const uncaught = hearUncaughtErrors();
    const { logger, lines } = capturingLogger();
    const tickId = randomUUID();
    const hold = new InProcessTickHold(database.pool, tickId, { log: logger, retakeDelayMs: 50 });
    try {
      await hold.take();
      const first = await markHolder(tickId);
      expect(first).toBeDefined();
      await database.pool.query('select pg_terminate_backend($1)', [first]);

      await waitFor('the mark held on another connection', async () => {
        const holder = await markHolder(tickId);
        return holder !== undefined && holder !== first;
      });
      await waitFor('the hold saying so', () => lines.length === 2);
      expect(messagesOf(lines)).toEqual([LOST, HELD_AGAIN]);
      expect(uncaught.errors).toEqual([]);
    } finally {
      uncaught.stop();
      await hold.release();
    }
    expect(await markHolder(tickId)).toBeUndefined();
  });

  it('finds a connection that leaves its check unanswered lost, and takes the mark again on another', async () => {
    const { logger, lines } = capturingLogger();
    const tickId = randomUUID();
    // The mark's connection answers nothing more: a network gone without a reset.
    const silent = (client: pg.PoolClient) =>
      new Proxy(client, { get: (target, name, receiver) => (name === 'query' ? (text: unknown, ...rest: unknown[]) => (text === 'select 1' ? new Promise(() => undefined) : target.query(text as string, ...(rest as []))) : Reflect.get(target, name, receiver) as unknown) });
    let connections = 0;
    const pool = { connect: (async () => (++connections === 1 ? silent(await database.pool.connect()) : database.pool.connect())) as pg.Pool['connect'] };
    const hold = new InProcessTickHold(pool, tickId, { log: logger, retakeDelayMs: 50, checkEveryMs: 50, answerWithinMs: 200 });
    try {
      await hold.take();
      const first = await markHolder(tickId);
      await waitFor('the mark taken again', () => lines.length === 2);
      expect(messagesOf(lines)).toEqual([LOST, HELD_AGAIN]);
      expect(lines[0]).toContain('Postgres did not answer within 200 ms');
      expect(await markHolder(tickId)).not.toBe(first);
    } finally {
      await hold.release();
    }
  });

  it('does not take the mark while another session holds it, and is released without waiting for it', async () => {
    const tickId = randomUUID();
    const { logger, lines } = capturingLogger();
    let otherHasIt: (value: unknown) => void = () => undefined;
    const pool = gatedPool(new Promise((resolve) => (otherHasIt = resolve)));
    const hold = new InProcessTickHold(pool, tickId, { log: logger, retakeDelayMs: 50 });
    const other = await database.pool.connect();
    try {
      await hold.take();
      const first = await markHolder(tickId);
      await database.pool.query('select pg_terminate_backend($1)', [first]);
      // The hold's tries wait at the gate until the other session has the mark.
      await other.query(holdInProcessTick.with({ tickId }));
      otherHasIt(undefined);
      await waitFor('two tries of the hold', () => pool.connections() >= 3);

      await hold.release();
      expect(await markHolder(tickId)).toBe((await other.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid);
      expect(messagesOf(lines)).toEqual([LOST]);
    } finally {
      await hold.release();
      other.release(true);
    }
  });
});
