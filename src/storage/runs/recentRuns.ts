import { poolOf, type Database } from '../database/database.js';
import { readRecentRuns, type RecentRunRow } from './statements/readRecentRuns.js';

export interface RunReport {
  runId: string;
  job: string;
  queryIndex: number;
  /** A fan-out query's value for this run. */
  value: string | null;
  status: string;
  attempt: number;
  pages: number;
  recordsNew: number;
  recordsUpdated: number;
  recordsUnchanged: number;
  startedAt: Date;
  durationMs: number | null;
  /** For a failed run, why; for a partial one, why it did not get everything (kind `max_pages`, `window_stuck`, `short_of_total`). */
  errorKind: string | null;
  error: string | null;
  notice: string | null;
}

/** The most recent runs with their notice's delivery state, newest first. */
export async function recentRuns(db: Database, limit = 20): Promise<RunReport[]> {
  const { rows } = await poolOf(db).query<RecentRunRow>(readRecentRuns.with({ limit }));
  return rows.map((run) => ({
    runId: run.id,
    job: run.job,
    queryIndex: run.query_index,
    value: run.fan_value,
    status: run.status,
    attempt: run.attempt,
    pages: run.pages,
    recordsNew: run.records_new,
    recordsUpdated: run.records_updated,
    recordsUnchanged: run.records_unchanged,
    startedAt: run.started_at,
    durationMs: run.finished_at ? run.finished_at.getTime() - run.started_at.getTime() : null,
    errorKind: run.error_kind,
    error: run.error,
    notice: run.notice,
  }));
}
