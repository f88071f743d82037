-- feedsync_notice_lease_one_v3: leaseNotice in src/notices/statements/leaseNotice.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :leaseMs
--   $2 :noticeId
update notices set next_attempt_at = now() + $1::int * interval '1 millisecond'
    where id = $2::text and state = 'pending' and next_attempt_at <= now()
    returning id, run_id, tick_id, body, traceparent, attempts, created_at
