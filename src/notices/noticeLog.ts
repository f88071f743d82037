import { desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../storage/database/database.js';
import { notices } from '../storage/tables/schema.js';

export type NoticeState = 'pending' | 'delivered' | 'exhausted';

export interface NoticeRow {
  id: string;
  /** What the notice reports: a run, or a job tick. */
  runId: string | null;
  tickId: string | null;
  type: string;
  state: NoticeState;
  attempts: number;
  createdAt: Date;
  deliveredAt: Date | null;
  nextAttemptAt: Date;
  lastError: string | null;
}

/** The newest notices with their delivery state: what `feedsync notices` lists, from the database alone. */
export async function listNotices(db: Database, limit = 50): Promise<NoticeRow[]> {
  return db
    .select({
      id: notices.id,
      runId: notices.runId,
      tickId: notices.tickId,
      type: notices.type,
      state: notices.state,
      attempts: notices.attempts,
      createdAt: notices.createdAt,
      deliveredAt: notices.deliveredAt,
      nextAttemptAt: notices.nextAttemptAt,
      lastError: notices.lastError,
    })
    .from(notices)
    .orderBy(desc(notices.createdAt))
    .limit(limit);
}

/** Makes a notice (in any state) due again now, a manual replay; false when there is no such notice. */
export async function markForRedelivery(db: Database, id: string): Promise<boolean> {
  const updated = await db.update(notices).set({ state: 'pending', nextAttemptAt: sql`now()` }).where(eq(notices.id, id)).returning({ id: notices.id });
  return updated.length > 0;
}
