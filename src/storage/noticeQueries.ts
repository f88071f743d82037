import { eq, sql } from 'drizzle-orm';
import type { Database } from './database.js';
import { notices } from './schema.js';

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
