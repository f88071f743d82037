-- feedsync_redeliver_notice_v1: redeliverNotice in src/notices/statements/redeliverNotice.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :noticeId
update notices set state = 'pending', next_attempt_at = now() where id = $1::text returning id
