import { NamedStatement } from '../../storage/database/NamedStatement.js';
import { TICK_COLUMNS } from '../../storage/ticks/tickState.js';

export interface ReadJobTicksParams {
  job: string;
  limit: number;
}

/** A job's latest ticks, newest first. */
export const readJobTicks = new NamedStatement<ReadJobTicksParams>(
  'feedsync_history_job_ticks_v1',
  `select ${TICK_COLUMNS} from job_ticks where job = :job::text order by started_at desc limit :limit::int`,
);
