import { NamedStatement } from '../../storage/database/NamedStatement.js';

/** Milliseconds until the earliest pending notice is due (negative: overdue); null when none is pending. */
export const findNextDue = new NamedStatement<Record<string, never>>(
  'feedsync_notice_next_due_v1',
  `select extract(epoch from (min(next_attempt_at) - now())) * 1000 as ms from notices where state = 'pending'`,
);
