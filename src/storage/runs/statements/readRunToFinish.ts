import { NamedStatement } from '../../database/NamedStatement.js';
import { RUN_COLUMNS } from '../runState.js';

/** A run as it stands, with the database's clock: a finish made from it ends now, by that clock. */
export const readRunToFinish = new NamedStatement<{ runId: string }>('feedsync_finish_read_v4', `select ${RUN_COLUMNS}, now() as now from sync_runs where id = :runId::uuid`);
