import type pg from 'pg';

/** A connection taken from the pool for several statements, until released. */
export interface CheckedOutClient {
  client: pg.PoolClient;
  /** Gives the connection back; as broken (the pool closes it) when `error` is given or the connection was lost. Once only: later calls do nothing. */
  release: (error?: Error) => void;
}

/**
 * Takes a connection from the pool for several statements. pg-pool hears a connection's errors
 * only while it sits idle in the pool: one lost while taken (Postgres restarting, the connection
 * killed) emits an 'error' nobody hears, which ends the process. Heard here, the loss reaches the
 * statement under way (or the next) as its error, `onLost` is told, and the connection goes back
 * as broken.
 */
export async function checkOut(pool: Pick<pg.Pool, 'connect'>, onLost?: (error: Error) => void): Promise<CheckedOutClient> {
  const client = await pool.connect();
  let lost: Error | undefined;
  let released = false;
  const listener = (error: Error) => {
    lost = error;
    onLost?.(error);
  };
  client.on('error', listener);
  return {
    client,
    release: (error) => {
      if (released) return;
      released = true;
      client.removeListener('error', listener);
      client.release(error ?? lost);
    },
  };
}
