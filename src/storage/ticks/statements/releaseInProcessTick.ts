import { NamedStatement } from '../../database/NamedStatement.js';
import { IN_PROCESS_TICK, type InProcessTickParams } from './inProcessTickLock.js';

/** Gives back the in-process tick lock (see holdInProcessTick). */
export const releaseInProcessTick = new NamedStatement<InProcessTickParams>('feedsync_release_in_process_tick_v1', `select pg_advisory_unlock(${IN_PROCESS_TICK}, hashtext(:tickId::text))`);
