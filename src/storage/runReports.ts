import { desc, eq, sql } from 'drizzle-orm';
import type { Database } from './database.js';
import { notices, syncRuns } from './schema.js';

export interface RunReport {
  runId: string;
  job: string;
  queryIndex: number;
  status: string;
  attempt: number;
  pages: number;
  recordsNew: number;
  recordsUpdated: number;
  recordsUnchanged: number;
  startedAt: Date;
  durationMs: number | null;
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
    status: run.status,
    attempt: run.attempt,
    pages: run.pages,
    recordsNew: run.recordsNew,
    recordsUpdated: run.recordsUpdated,
    recordsUnchanged: run.recordsUnchanged,
    startedAt: run.startedAt,
    durationMs: run.finishedAt ? run.finishedAt.getTime() - run.startedAt.getTime() : null,
    error: run.error,
    notice,
  }));
}

/** Whether a run's completion notice is in the outbox. */
export async function hasNotice(db: Database, runId: string): Promise<boolean> {
  const rows = await db.select({ id: notices.id }).from(notices).where(eq(notices.runId, runId)).limit(1);
  return rows.length > 0;
}

/** How many notices are in each delivery state. */
export async function noticeCounts(db: Database): Promise<Record<string, number>> {
  const rows = await db.select({ state: notices.state, count: sql<string>`count(*)` }).from(notices).groupBy(notices.state);
  const counts: Record<string, number> = { pending: 0, delivered: 0, exhausted: 0 };
  for (const row of rows) counts[row.state] = Number(row.count);
  return counts;
}
