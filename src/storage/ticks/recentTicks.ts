import { poolOf, type Database } from '../database/database.js';
import { readRecentTicks, type RecentTickRow } from './statements/readRecentTicks.js';
import { tickStateOf, type TickState } from './tickState.js';

export type TickReport = TickState & { durationMs: number | null; notice: string | null };

/** The most recent job ticks with their notice's delivery state, newest first. */
export async function recentTicks(db: Database, limit = 20): Promise<TickReport[]> {
  const { rows } = await poolOf(db).query<RecentTickRow>(readRecentTicks.with({ limit }));
  return rows.map((row) => {
    const tick = tickStateOf(row);
    return { ...tick, durationMs: tick.finishedAt ? tick.finishedAt.getTime() - tick.startedAt.getTime() : null, notice: row.notice };
  });
}
