import { poolOf, type Database } from '../database/database.js';
import { countNoticesByState, type NoticeStateCountRow } from './statements/countNoticesByState.js';

/** How many notices are in each delivery state. */
export async function noticeCounts(db: Database): Promise<Record<string, number>> {
  const { rows } = await poolOf(db).query<NoticeStateCountRow>(countNoticesByState.with({}));
  const counts: Record<string, number> = { pending: 0, delivered: 0, exhausted: 0 };
  for (const row of rows) counts[row.state] = Number(row.count);
  return counts;
}
