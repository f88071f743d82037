import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessTickLock } from '../../../src/storage/ticks/InProcessTickLock.js';
import { holdInProcessTick } from '../../../src/storage/ticks/statements/holdInProcessTick.js';
import { inProcessLockHolder } from '../../support/inProcessLock.js';
import { capturingLogger } from '../../support/syncFixture.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';
import { hearUncaughtErrors } from '../../support/uncaughtErrors.js';
import { waitFor } from '../../support/waitFor.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const lockHolder = (tickId: string) => inProcessLockHolder(database.pool, tickId);

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

describe('InProcessTickLock', () => {
  it('holds the lock until released', async () => {
    const tickId = randomUUID();
    const lock = new InProcessTickLock(database.pool, tickId, { log: capturingLogger().logger });
    try {
      await lock.take();
      expect(await lockHolder(tickId)).toBeDefined();
    } finally {
      await lock.release();
    }
    expect(await lockHolder(tickId)).toBeUndefined();
  });

  it('takes the lock again on a new connection when its connection is lost, saying so, so that a live process is not taken for a gone one', async () => {
    const uncaught = hearUncaughtErrors();
    const { logger, lines } = capturingLogger();
    const tickId = randomUUID();
    const lock = new InProcessTickLock(database.pool, tickId, { log: logger, retakeDelayMs: 50 });
    try {
      await lock.take();
      const first = await lockHolder(tickId);
      expect(first).toBeDefined();
      await database.pool.query('select pg_terminate_backend($1)', [first]);

      await waitFor('the lock held on another connection', async () => {
        const holder = await lockHolder(tickId);
        return holder !== undefined && holder !== first;
      });
      await waitFor('the lock saying so', () => lines.length === 2);
      expect(messagesOf(lines)).toEqual([LOST, HELD_AGAIN]);
      expect(uncaught.errors).toEqual([]);
    } finally {
      uncaught.stop();
      await lock.release();
    }
    expect(await lockHolder(tickId)).toBeUndefined();
  });

  it('finds a connection that leaves its check unanswered lost, and takes the lock again on another', async () => {
    const { logger, lines } = capturingLogger();
    const tickId = randomUUID();
    // The lock's connection answers nothing more: a network gone without a reset.
    const silent = (client: pg.PoolClient) =>
      new Proxy(client, { get: (target, name, receiver) => (name === 'query' ? (text: unknown, ...rest: unknown[]) => (text === 'select 1' ? new Promise(() => undefined) : target.query(text as string, ...(rest as []))) : Reflect.get(target, name, receiver) as unknown) });
    let connections = 0;
    const pool = { connect: (async () => (++connections === 1 ? silent(await database.pool.connect()) : database.pool.connect())) as pg.Pool['connect'] };
    const lock = new InProcessTickLock(pool, tickId, { log: logger, retakeDelayMs: 50, checkEveryMs: 50, answerWithinMs: 200 });
    try {
      await lock.take();
      const first = await lockHolder(tickId);
      await waitFor('the lock taken again', () => lines.length === 2);
      expect(messagesOf(lines)).toEqual([LOST, HELD_AGAIN]);
      expect(lines[0]).toContain('Postgres did not answer within 200 ms');
      expect(await lockHolder(tickId)).not.toBe(first);
    } finally {
      await lock.release();
    }
  });

  it('does not take the lock while another session holds it, and is released without waiting for it', async () => {
    const tickId = randomUUID();
    const { logger, lines } = capturingLogger();
    let otherHasIt: (value: unknown) => void = () => undefined;
    const pool = gatedPool(new Promise((resolve) => (otherHasIt = resolve)));
    const lock = new InProcessTickLock(pool, tickId, { log: logger, retakeDelayMs: 50 });
    const other = await database.pool.connect();
    try {
      await lock.take();
      const first = await lockHolder(tickId);
      await database.pool.query('select pg_terminate_backend($1)', [first]);
      // The lock's retakes wait at the gate until the other session has the lock.
      await other.query(holdInProcessTick.with({ tickId }));
      otherHasIt(undefined);
      await waitFor('two tries of the lock', () => pool.connections() >= 3);

      await lock.release();
      expect(await lockHolder(tickId)).toBe((await other.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid);
      expect(messagesOf(lines)).toEqual([LOST]);
    } finally {
      await lock.release();
      other.release(true);
    }
  });
});
