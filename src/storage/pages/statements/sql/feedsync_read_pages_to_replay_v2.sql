-- feedsync_read_pages_to_replay_v2: readPagesToReplay in src/storage/pages/statements/readPagesToReplay.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :job
--   $2 :queryIndex
--   $3 :value
--   $4 :since
--   $5 :latestRunOnly
--   $6 :afterStartedAt
--   $7 :afterRunId
--   $8 :afterPageSeq
--   $9 :limit
select r.id as run_id, r.started_at::text as run_started_at, r.fan_value, e.page_seq, e.request_url, e.status, e.message, e.bytes, e.content_hash, e.latency_ms, e.fetched_at, b.body::text as body
    from sync_runs r
    join envelopes e on e.run_id = r.id
    join page_bodies b on b.content_hash = e.content_hash
    where r.job = $1::text and r.query_index = $2::int and r.run_key not like 'replay/%'
      and ($3::text is null or r.fan_value = $3::text)
      and ($4::timestamptz is null or r.started_at >= $4::timestamptz)
      and (not $5::boolean or r.id = (
        select l.id from sync_runs l
        where l.job = r.job and l.query_key = r.query_key and l.status = 'succeeded' and l.run_key not like 'replay/%'
        order by l.started_at desc, l.id desc limit 1))
      and (r.started_at, r.id, e.page_seq) > ($6::timestamptz, $7::uuid, $8::int)
    order by r.started_at, r.id, e.page_seq
    limit $9::int
