-- feedsync_history_notice_attempts_v1: readNoticeAttempts in src/history/statements/readNoticeAttempts.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :noticeId
--   $2 :limit
select attempted_at, http_status, latency_ms, error from notice_attempts where notice_id = $1::text order by id limit $2::int
