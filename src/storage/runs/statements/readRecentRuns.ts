import { NamedStatement } from '../../database/NamedStatement.js';

/** A run as `feedsync status` lists it, with its notice's delivery state. */
export interface RecentRunRow {
  id: string;
  job: string;
  query_index: number;
  fan_value: string | null;
  status: string;
  attempt: number;
  pages: number;
  records_new: number;
  records_updated: number;
  records_unchanged: number;
  started_at: Date;
  finished_at: Date | null;
  error_kind: string | null;
  error: string | null;
  notice: string | null;
}

/** The most recent runs, newest first, each with its notice's state (null: none). */
export const readRecentRuns = new NamedStatement<{ limit: number }>(
  'feedsync_read_recent_runs_v1',
  `select r.id, r.job, r.query_index, r.fan_value, r.status, r.attempt, r.pages, r.records_new, r.records_updated, r.records_unchanged,
      r.started_at, r.finished_at, r.error_kind, r.error, n.state as notice
    from sync_runs r left join notices n on n.run_id = r.id
    order by r.started_at desc
    limit :limit::int`,
);
