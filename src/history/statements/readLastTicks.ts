import { NamedStatement } from '../../storage/database/NamedStatement.js';
import { TICK_COLUMNS, type TickRow } from '../../storage/ticks/tickState.js';

export interface ReadLastTicksParams {
  jobs: string[];
}

/** Per job: its latest tick's columns (all null when it has none) and the time its latest scheduled tick was for. */
export type LastTickRow = { config_job: string; last_scheduled_for: Date | null } & ({ [K in keyof TickRow]: TickRow[K] } | { [K in keyof TickRow]: null });

/** Each job's latest tick, and its latest scheduled one's time, by the (job, started_at) index. */
export const readLastTicks = new NamedStatement<ReadLastTicksParams>(
  'feedsync_history_last_ticks_v1',
  `select j.job as config_job, s.scheduled_for as last_scheduled_for, ${TICK_COLUMNS.split(', ').map((column) => `t.${column}`).join(', ')}
    from unnest(:jobs::text[]) as j(job)
    left join lateral (select * from job_ticks where job = j.job order by started_at desc limit 1) t on true
    left join lateral (select scheduled_for from job_ticks where job = j.job and trigger = 'schedule' order by started_at desc limit 1) s on true`,
);
