-- feedsync_notice_next_due_v1: findNextDue in src/notices/statements/findNextDue.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- no parameters
select extract(epoch from (min(next_attempt_at) - now())) * 1000 as ms from notices where state = 'pending'
