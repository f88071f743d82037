-- feedsync_history_page_meta_v1: readPageMeta in src/history/statements/readPageMeta.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :runId
--   $2 :pageSeq
select page_seq, request_url, status, message, bytes, content_hash, latency_ms, fetched_at from envelopes where run_id = $1::uuid and page_seq = $2::int
