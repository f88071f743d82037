-- feedsync_notice_lease_due_v3: leaseDueNotices in src/notices/statements/leaseDueNotices.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :leaseMs
--   $2 :count
update notices set next_attempt_at = now() + $1::int * interval '1 millisecond'
    where id in (
      select id from notices where state = 'pending' and next_attempt_at <= now()
      order by next_attempt_at limit $2::int for update skip locked
    )
    returning id, run_id, tick_id, body, traceparent, attempts, created_at
