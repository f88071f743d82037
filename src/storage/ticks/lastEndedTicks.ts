import type pg from 'pg';
import { readLastEndedTicks, type LastEndedTickRow } from './statements/readLastEndedTicks.js';

export interface LastEndedTick {
  job: string;
  /** How the job's latest ended tick went; undefined before one has ended. */
  status: string | undefined;
  /** When its latest scheduled tick was for; undefined before its first. */
  lastScheduledFor: Date | undefined;
}

/** Each of these jobs' latest ended tick's status and latest scheduled tick's time, one row a job. */
export async function lastEndedTicks(pool: Pick<pg.Pool, 'query'>, jobs: readonly string[]): Promise<LastEndedTick[]> {
  const { rows } = await pool.query<LastEndedTickRow>(readLastEndedTicks.with({ jobs: [...jobs] }));
  return rows.map((row) => ({ job: row.job, status: row.last_status ?? undefined, lastScheduledFor: row.last_scheduled_for ?? undefined }));
}
