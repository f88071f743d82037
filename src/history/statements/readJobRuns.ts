import { NamedStatement } from '../../storage/database/NamedStatement.js';
import { RUN_LIST_COLUMNS } from './runListColumns.js';

export interface ReadJobRunsParams {
  job: string;
  limit: number;
  offset: number;
}

/** A page of a job's runs, newest first, by the (job, started_at) index. */
export const readJobRuns = new NamedStatement<ReadJobRunsParams>(
  'feedsync_history_job_runs_v1',
  `select ${RUN_LIST_COLUMNS} from sync_runs where job = :job::text order by started_at desc, id limit :limit::int offset :offset::int`,
);
