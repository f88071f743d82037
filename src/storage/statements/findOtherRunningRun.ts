import { NamedStatement } from '../namedStatement.js';

export interface FindOtherRunningRunParams {
  job: string;
  /** The query (with its fan-out value): see ResolvedQuery.queryKey. */
  queryKey: string;
  /** The run asking, which does not count. */
  runKey: string;
  /** A run that has stored nothing for this long has lost its worker and does not count. */
  staleAfterMs: number;
}

/**
 * A run of this job and query, other than :runKey, that is under way (running, or interrupted or
 * retrying and waiting in the queue) and stored a page (or started) recently. Queued runs that
 * have not started do not count: they wait behind this one. The statuses are literals, not
 * parameters: only then can a generic plan use the partial index on unfinished runs.
 */
export const findOtherRunningRun = new NamedStatement<FindOtherRunningRunParams>(
  'feedsync_find_other_running_run_v4',
  `select id from sync_runs
    where job = :job::text and query_key = :queryKey::text and status in ('running', 'interrupted', 'retrying') and run_key <> :runKey::text
      and updated_at > now() - make_interval(secs => :staleAfterMs::double precision / 1000)
    limit 1`,
);
