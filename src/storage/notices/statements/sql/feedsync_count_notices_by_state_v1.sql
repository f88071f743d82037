-- feedsync_count_notices_by_state_v1: countNoticesByState in src/storage/notices/statements/countNoticesByState.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- no parameters
select state, count(*) as count from notices group by state
