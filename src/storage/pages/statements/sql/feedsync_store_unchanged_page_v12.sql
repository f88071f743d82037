-- feedsync_store_unchanged_page_v12: storeUnchangedPage in src/storage/pages/statements/storeUnchangedPage.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :runId
--   $2 :pagesBefore
--   $3 :keys
--   $4 :hashes
--   $5 :source
--   $6 :kind
--   $7 :checkpoint
--   $8 :deadIndexes
--   $9 :collapsed
--   $10 :nulsRemoved
--   $11 :filtered
--   $12 :cursorValue
--   $13 :changeHorizon
--   $14 :contentHash
--   $15 :body
--   $16 :bytes
--   $17 :requestUrl
--   $18 :status
--   $19 :message
--   $20 :latencyMs
--   $21 :derivation
--   $22 :deadKeys
--   $23 :deadReasons
--   $24 :deadRaws
--   $25 :refreshScope
with locked_run as materialized (
      select id, status from sync_runs where id = $1::uuid and pages = $2::int for update
    ),
    claim as (
      select id from locked_run where status = 'running'
    ),
    changed as (
      select 1 from unnest($3::text[], $4::text[]) as n(key, hash)
      where n.hash is distinct from (select c.content_hash from records c where c.key_digest = feedsync_key_digest($5::text, n.key) and c.kind = $6::text and c.source = $5::text and c.key = n.key and c.deleted_at is null)
      limit 1
    ),
    run as (
      update sync_runs s
      set checkpoint = $7::jsonb, pages = s.pages + 1, records_unchanged = s.records_unchanged + cardinality($3::text[]),
          records_skipped = s.records_skipped + cardinality($8::int[]),
          records_collapsed = s.records_collapsed + $9::int, nul_chars_removed = s.nul_chars_removed + $10::int,
          records_filtered = s.records_filtered + $11::int, cursor_value = $12::text, updated_at = now()
      where s.id in (select id from claim) and not exists (select 1 from changed)
      returning s.id, s.xmin::text as version
    ),
    page_proof as (
      select null::bigint as seq_from, (select case when h.seq < $13::bigint then h.seq end from (select (select coalesce(max(c.change_seq), 0) from records c where c.kind = $6::text) as seq) h) as seq_to, cardinality($3::text[]) as records, null::uuid as run_id where cardinality($3::text[]) > 0 and cardinality($8::int[]) = 0
      and $9::int = 0 and $10::int = 0 and $11::int = 0
    ),
    page_body as (
      insert into page_bodies (content_hash, body, bytes)
      select $14::text, $15::text::json, $16::int from run
      where $15::text is not null and not exists (select 1 from page_bodies b where b.content_hash = $14::text)
      on conflict (content_hash) do nothing
    ),
    envelope as (
      insert into envelopes (run_id, page_seq, request_url, status, message, bytes, content_hash, latency_ms, proof_seq_from, proof_seq_to, proof_records, proof_run_id, proof_derivation)
      select run.id, $2::int + 1, $17::text, $18::text, $19::text, $16::int, $14::text, $20::int,
        p.seq_from, p.seq_to, p.records, case when p.seq_to is not null then p.run_id end, case when p.seq_to is not null then $21::text end
      from run left join page_proof p on $21::text is not null
    ),
    dead_letters as (
      insert into dead_letters (run_id, page_seq, record_index, key, reason, raw)
      select run.id, $2::int + 1, d.record_index, d.key, d.reason, d.raw
      from run, unnest($8::int[], $22::text[], $23::text[], $24::text[]) as d(record_index, key, reason, raw)
    ),
    refresh_keys as (
      insert into full_refresh_keys as f (scope, source, kind, key, run_id)
      select $25::text, $5::text, $6::text, k.key, run.id
      from run, (select unnest($3::text[]) union select unnest($22::text[])) as k(key)
      where $25::text is not null
      on conflict (scope, source, kind, key) do update set run_id = excluded.run_id where f.run_id <> excluded.run_id
    )
    select (select version from run) as version, exists (select 1 from claim) as claimed
