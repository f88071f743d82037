import { NamedStatement } from '../../database/NamedStatement.js';

/** count: a bigint, as text. */
export interface NoticeStateCountRow {
  state: string;
  count: string;
}

/** How many notices are in each delivery state that any notice is in. */
export const countNoticesByState = new NamedStatement<Record<string, never>>('feedsync_count_notices_by_state_v1', 'select state, count(*) as count from notices group by state');
