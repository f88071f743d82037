import { desc, eq } from 'drizzle-orm';
import type { Database } from '../database/database.js';
import { jobTicks, notices } from '../tables/schema.js';
import type { TickState } from './tickState.js';

export type TickReport = TickState & { durationMs: number | null; notice: string | null };

/** The most recent job ticks with their notice's delivery state, newest first. */
export async function recentTicks(db: Database, limit = 20): Promise<TickReport[]> {
  const rows = await db
    .select({ tick: jobTicks, notice: notices.state })
    .from(jobTicks)
    .leftJoin(notices, eq(notices.tickId, jobTicks.id))
    .orderBy(desc(jobTicks.startedAt))
    .limit(limit);
  return rows.map(({ tick, notice }) => ({
    id: tick.id,
    tickKey: tick.tickKey,
    job: tick.job,
    trigger: tick.trigger,
    scheduledFor: tick.scheduledFor,
    status: tick.status,
    runs: { total: tick.runsTotal, done: tick.runsDone, succeeded: tick.runsSucceeded, partial: tick.runsPartial, failed: tick.runsFailed, skipped: tick.runsSkipped },
    records: { new: tick.recordsNew, updated: tick.recordsUpdated, unchanged: tick.recordsUnchanged, skipped: tick.recordsSkipped },
    error: tick.error,
    startedAt: tick.startedAt,
    finishedAt: tick.finishedAt,
    durationMs: tick.finishedAt ? tick.finishedAt.getTime() - tick.startedAt.getTime() : null,
    notice,
  }));
}
