import { NamedStatement } from '../../database/NamedStatement.js';
import { TICK_COLUMNS } from '../tickState.js';

export const findTick = new NamedStatement<{ tickId: string }>('feedsync_find_tick_v1', `select ${TICK_COLUMNS} from job_ticks where id = :tickId::uuid`);
