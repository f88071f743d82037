import { poolOf, type Database } from '../storage/database/database.js';
import { readNotices, type NoticeListRow } from './statements/readNotices.js';
import { redeliverNotice } from './statements/redeliverNotice.js';

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
  const { rows } = await poolOf(db).query<NoticeListRow>(readNotices.with({ limit }));
  return rows.map((row) => ({
    id: row.id,
    runId: row.run_id,
    tickId: row.tick_id,
    type: row.type,
    state: row.state,
    attempts: row.attempts,
    createdAt: row.created_at,
    deliveredAt: row.delivered_at,
    nextAttemptAt: row.next_attempt_at,
    lastError: row.last_error,
  }));
}

/** Makes a notice (in any state) due again now, a manual replay; false when there is no such notice. */
export async function markForRedelivery(db: Database, id: string): Promise<boolean> {
  const { rows } = await poolOf(db).query<{ id: string }>(redeliverNotice.with({ noticeId: id }));
  return rows.length > 0;
}
