import { desc, eq } from 'drizzle-orm';
import type { Database } from '../database/database.js';
import { notices, syncRuns } from '../tables/schema.js';

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
  const rows = await db
    .select({ run: syncRuns, notice: notices.state })
    .from(syncRuns)
    .leftJoin(notices, eq(notices.runId, syncRuns.id))
    .orderBy(desc(syncRuns.startedAt))
    .limit(limit);
  return rows.map(({ run, notice }) => ({
    runId: run.id,
    job: run.job,
    queryIndex: run.queryIndex,
    value: run.fanValue,
    status: run.status,
    attempt: run.attempt,
    pages: run.pages,
    recordsNew: run.recordsNew,
    recordsUpdated: run.recordsUpdated,
    recordsUnchanged: run.recordsUnchanged,
    startedAt: run.startedAt,
    durationMs: run.finishedAt ? run.finishedAt.getTime() - run.startedAt.getTime() : null,
    errorKind: run.errorKind,
    error: run.error,
    notice,
  }));
}
