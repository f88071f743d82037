import { NamedStatement } from '../../database/NamedStatement.js';

export interface FindUnfinishedQueriesParams {
  job: string;
  queryKeys: string[];
  /** A run that has stored nothing for this long has lost its worker and does not count. */
  staleAfterMs: number;
}

/**
 * Of these queries of a job, those with a run not ended yet (queued by an earlier tick, or under
 * way) that changed recently: a new tick skips them when the job's overlap policy is skip.
 */
export const findUnfinishedQueries = new NamedStatement<FindUnfinishedQueriesParams>(
  'feedsync_find_unfinished_queries_v1',
  `select distinct query_key from sync_runs
    where job = :job::text and query_key = any(:queryKeys::text[]) and status in ('queued', 'running', 'interrupted', 'retrying')
      and updated_at > now() - make_interval(secs => :staleAfterMs::double precision / 1000)`,
);
