import { NamedStatement } from '../../database/NamedStatement.js';
import { IN_PROCESS_TICK, type InProcessTickParams } from './inProcessTickLock.js';

/** Takes the in-process tick lock if no process holds it (then the process that ran the tick is gone); true if taken. */
export const tryInProcessTick = new NamedStatement<InProcessTickParams>('feedsync_try_in_process_tick_v1', `select pg_try_advisory_lock(${IN_PROCESS_TICK}, hashtext(:tickId::text)) as taken`);
