import { NamedStatement } from '../../storage/database/NamedStatement.js';

export interface ReadNoticeAttemptsParams {
  noticeId: string;
  limit: number;
}

export interface NoticeAttemptRow {
  attempted_at: Date;
  http_status: number | null;
  latency_ms: number;
  error: string | null;
}

/** A notice's delivery attempts, first first. */
export const readNoticeAttempts = new NamedStatement<ReadNoticeAttemptsParams>(
  'feedsync_history_notice_attempts_v1',
  `select attempted_at, http_status, latency_ms, error from notice_attempts where notice_id = :noticeId::text order by id limit :limit::int`,
);
