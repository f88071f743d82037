import { NamedStatement } from '../../database/NamedStatement.js';

/** The advisory lock class of ticks run in process (`feedsync run`); the tick id's hash is the lock's second key. */
export const IN_PROCESS_TICK = 7_346_112;

export interface InProcessTickParams {
  tickId: string;
}

/**
 * Held on a connection of its own by the process that runs a tick's runs itself, for as long as
 * it does: a session lock, which Postgres drops when that process's connection dies.
 */
export const holdInProcessTick = new NamedStatement<InProcessTickParams>('feedsync_hold_in_process_tick_v1', `select pg_advisory_lock(${IN_PROCESS_TICK}, hashtext(:tickId::text))`);

export const releaseInProcessTick = new NamedStatement<InProcessTickParams>('feedsync_release_in_process_tick_v1', `select pg_advisory_unlock(${IN_PROCESS_TICK}, hashtext(:tickId::text))`);

/** Takes the lock if no process holds it (then the process that ran the tick is gone); true if taken. */
export const tryInProcessTick = new NamedStatement<InProcessTickParams>('feedsync_try_in_process_tick_v1', `select pg_try_advisory_lock(${IN_PROCESS_TICK}, hashtext(:tickId::text)) as taken`);
