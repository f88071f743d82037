import { NamedStatement } from '../../storage/database/NamedStatement.js';
import { RUN_LIST_COLUMNS } from './runListColumns.js';

export interface ReadJobRunsWithStatusParams {
  job: string;
  status: string;
  limit: number;
  offset: number;
}

/** A page of a job's runs in one status, newest first, by the (job, status, started_at) index. */
export const readJobRunsWithStatus = new NamedStatement<ReadJobRunsWithStatusParams>(
  'feedsync_history_job_runs_status_v1',
  `select ${RUN_LIST_COLUMNS} from sync_runs where job = :job::text and status = :status::text order by started_at desc, id limit :limit::int offset :offset::int`,
);
