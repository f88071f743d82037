-- feedsync_history_run_pages_v1: readRunPages in src/history/statements/readRunPages.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :runId
--   $2 :limit
--   $3 :offset
select page_seq, request_url, status, message, bytes, content_hash, latency_ms, fetched_at from envelopes where run_id = $1::uuid order by page_seq limit $2::int offset $3::int
