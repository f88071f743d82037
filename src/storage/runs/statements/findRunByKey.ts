import { NamedStatement } from '../../database/NamedStatement.js';
import { RUN_COLUMNS } from '../runState.js';

/** The run with this run key, if any. */
export const findRunByKey = new NamedStatement<{ runKey: string }>('feedsync_find_run_by_key_v2', `select ${RUN_COLUMNS} from sync_runs where run_key = :runKey::text`);
