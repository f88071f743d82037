-- feedsync_history_run_page_totals_v1: readRunPageTotals in src/history/statements/readRunPageTotals.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :runId
select count(*)::int as pages, sum(bytes)::text as bytes, round(avg(latency_ms))::int as mean_latency_ms, max(latency_ms) as max_latency_ms
    from envelopes where run_id = $1::uuid
