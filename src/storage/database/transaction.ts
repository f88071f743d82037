import type pg from 'pg';
import { checkOut } from './checkOut.js';

/** A connection of the pool inside a transaction: what the steps of one transaction run on. */
export type TransactionClient = Pick<pg.PoolClient, 'query'>;

/** Runs `work` in one transaction on one connection: committed if it returns, rolled back if it throws. */
export async function inTransaction<T>(pool: Pick<pg.Pool, 'connect'>, work: (client: TransactionClient) => Promise<T>): Promise<T> {
  const { client, release } = await checkOut(pool);
  let broken: Error | undefined;
  try {
    await client.query('begin');
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback').catch((rollbackError: unknown) => (broken = rollbackError as Error));
    throw error;
  } finally {
    // A connection whose rollback failed is in an unknown state: the pool must not hand it out again.
    release(broken);
  }
}
