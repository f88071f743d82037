import { NamedStatement } from '../../storage/database/NamedStatement.js';

export interface NoticeListRow {
  id: string;
  run_id: string | null;
  tick_id: string | null;
  type: string;
  state: 'pending' | 'delivered' | 'exhausted';
  attempts: number;
  created_at: Date;
  delivered_at: Date | null;
  next_attempt_at: Date;
  last_error: string | null;
}

/** The newest notices, newest first, without their bodies. */
export const readNotices = new NamedStatement<{ limit: number }>(
  'feedsync_read_notices_v1',
  `select id, run_id, tick_id, type, state, attempts, created_at, delivered_at, next_attempt_at, last_error
    from notices
    order by created_at desc
    limit :limit::int`,
);
