-- feedsync_notice_attempts_v3: recordDeliveryAttempts in src/notices/statements/recordDeliveryAttempts.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :noticeIds
--   $2 :httpStatuses
--   $3 :latenciesMs
--   $4 :errors
--   $5 :states
--   $6 :attemptCounts
--   $7 :delaysMs
with attempt as (
      select * from unnest($1::text[], $2::int[], $3::int[], $4::text[], $5::text[], $6::int[], $7::bigint[])
        as t(notice_id, http_status, latency_ms, error, state, attempts, delay_ms)
    ),
    recorded as (
      insert into notice_attempts (notice_id, http_status, latency_ms, error)
      select notice_id, http_status, latency_ms, error from attempt
    )
    update notices n set state = a.state, attempts = a.attempts, last_error = a.error,
      delivered_at = case when a.state = 'delivered' then now() end,
      next_attempt_at = now() + a.delay_ms * interval '1 millisecond'
    from attempt a where n.id = a.notice_id
