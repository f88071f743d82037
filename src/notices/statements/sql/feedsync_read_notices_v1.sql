-- feedsync_read_notices_v1: readNotices in src/notices/statements/readNotices.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :limit
select id, run_id, tick_id, type, state, attempts, created_at, delivered_at, next_attempt_at, last_error
    from notices
    order by created_at desc
    limit $1::int
