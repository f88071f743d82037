import { sql } from 'drizzle-orm';
import type { Database } from '../database/database.js';
import { notices } from '../tables/schema.js';

/** How many notices are in each delivery state. */
export async function noticeCounts(db: Database): Promise<Record<string, number>> {
  const rows = await db.select({ state: notices.state, count: sql<string>`count(*)` }).from(notices).groupBy(notices.state);
  const counts: Record<string, number> = { pending: 0, delivered: 0, exhausted: 0 };
  for (const row of rows) counts[row.state] = Number(row.count);
  return counts;
}
