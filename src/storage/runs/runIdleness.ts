import type pg from 'pg';
import { readRunIdleness, type RunIdlenessRow } from './statements/readRunIdleness.js';

export interface RunIdleness {
  job: string;
  /** queued, running, interrupted or retrying. */
  status: string;
  /** How long the longest idle run of the job in that status has gone without its row changing. */
  idleSeconds: number;
}

/** For each job with unfinished runs, by status: how long the longest idle of them has stored nothing. */
export async function runIdleness(pool: Pick<pg.Pool, 'query'>): Promise<RunIdleness[]> {
  const { rows } = await pool.query<RunIdlenessRow>(readRunIdleness.with({}));
  return rows.map((row) => ({ job: row.job, status: row.status, idleSeconds: Math.max(0, Number(row.idle_s)) }));
}
