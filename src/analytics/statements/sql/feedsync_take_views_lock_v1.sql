-- feedsync_take_views_lock_v1: takeViewsLock in src/analytics/statements/takeViewsLock.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- no parameters
select pg_advisory_xact_lock(7346112003)
