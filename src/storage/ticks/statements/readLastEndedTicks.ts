import { NamedStatement } from '../../database/NamedStatement.js';

export interface LastEndedTickRow {
  job: string;
  /** null: no tick of the job has ended. */
  last_status: string | null;
  /** null: the job has no scheduled tick. */
  last_scheduled_for: Date | null;
}

/** Per job: how its latest ended tick went, and when its latest scheduled tick was for, each by the (job, started_at) index. */
export const readLastEndedTicks = new NamedStatement<{ jobs: string[] }>(
  'feedsync_read_last_ended_ticks_v1',
  `select j.job, e.status as last_status, s.scheduled_for as last_scheduled_for
    from unnest(:jobs::text[]) as j(job)
    left join lateral (select status from job_ticks where job = j.job and status <> 'running' order by started_at desc limit 1) e on true
    left join lateral (select scheduled_for from job_ticks where job = j.job and trigger = 'schedule' order by started_at desc limit 1) s on true`,
);
