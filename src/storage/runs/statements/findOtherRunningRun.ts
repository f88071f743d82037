import { NamedStatement } from '../../database/NamedStatement.js';

export interface FindOtherRunningRunParams {
  job: string;
  /** The query (with its fan-out value): see ResolvedQuery.queryKey. */
  queryKey: string;
  /** The run asking, which does not count. */
  runKey: string;
  /** A run that has stored nothing for this long has lost its worker and does not count. */
  staleAfterMs: number;
  /** A queued run waiting this long has lost its queue job (and the reconciler has let it be): it does not count either. */
  queuedStaleAfterMs: number;
  /** SQL `like` patterns of the run keys that have a queue job: a queued row of another key is left from `feedsync run`. */
  queuedRunKeyPatterns: string[];
}

/**
 * A run of this job and query, other than :runKey, that goes first: one under way (running, or
 * interrupted or retrying and waiting in the queue) that stored a page (or started) recently; or,
 * while :runKey has not started, one queued before it (by when its tick was opened, then run key)
 * that the queue will take up: one with a queue job (:queuedRunKeyPatterns; `feedsync run`, killed,
 * leaves queued rows no queue holds) queued less than :queuedStaleAfterMs ago. Without the second, two queued runs of a
 * query taken up at once would each find the other not started and both run; with it, every
 * checker agrees which queued run is first. The statuses
 * are literals, not parameters: only then can a generic plan use the partial index on unfinished runs.
 */
export const findOtherRunningRun = new NamedStatement<FindOtherRunningRunParams>(
  'feedsync_find_other_running_run_v6',
  `select o.id from sync_runs o
    where o.job = :job::text and o.query_key = :queryKey::text and o.status in ('queued', 'running', 'interrupted', 'retrying') and o.run_key <> :runKey::text
      and case
        when o.status = 'queued' then o.run_key like any(:queuedRunKeyPatterns::text[])
          and o.updated_at > now() - make_interval(secs => :queuedStaleAfterMs::double precision / 1000)
          and (o.started_at, o.run_key) < (select m.started_at, m.run_key from sync_runs m where m.run_key = :runKey::text and m.status = 'queued')
        else o.updated_at > now() - make_interval(secs => :staleAfterMs::double precision / 1000)
      end
    limit 1`,
);
