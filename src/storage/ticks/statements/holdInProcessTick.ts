import { NamedStatement } from '../../database/NamedStatement.js';
import { IN_PROCESS_TICK, type InProcessTickParams } from './inProcessTickLock.js';

/**
 * Held on a connection of its own by the process that runs a tick's runs itself, for as long as
 * it does: a session lock, which Postgres drops when that process's connection dies.
 */
export const holdInProcessTick = new NamedStatement<InProcessTickParams>('feedsync_hold_in_process_tick_v1', `select pg_advisory_lock(${IN_PROCESS_TICK}, hashtext(:tickId::text))`);
