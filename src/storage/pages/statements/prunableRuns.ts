/**
 * The `doomed` CTE: a job's succeeded runs whose stored pages its retention policy lets go, that
 * still have some. A null setting takes no part: with both null, the policy keeps everything and
 * no statement runs. Failed, partial and unfinished runs never appear: their pages are kept as long as the run.
 */
export const PRUNABLE_RUNS = `doomed as (
      select r.id from sync_runs r
      where r.job = :job::text and r.status = 'succeeded'
        and (:maxAgeDays::int is null or r.finished_at < now() - make_interval(days => :maxAgeDays::int))
        and (:keepLastRuns::int is null or (
          select count(*) from sync_runs n
          where n.job = r.job and n.query_key = r.query_key and n.status = 'succeeded' and (n.started_at, n.id) > (r.started_at, r.id)
        ) >= :keepLastRuns::int)
        and exists (select 1 from envelopes e where e.run_id = r.id)
      order by r.started_at
      limit :runs::int
    )`;

export interface PrunableRunsParams {
  job: string;
  maxAgeDays: number | null;
  keepLastRuns: number | null;
  /** Runs taken at once: a batch's envelopes are deleted in one short transaction. */
  runs: number;
}
