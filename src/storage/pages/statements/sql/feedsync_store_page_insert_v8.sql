-- feedsync_store_page_insert_v8: storePageInsertingRecords in src/storage/pages/statements/storePage.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :runId
--   $2 :pagesBefore
--   $3 :keys
--   $4 :hashes
--   $5 :payloads
--   $6 :source
--   $7 :kind
--   $8 :sourceRunId
--   $9 :sourceRunStartedAt
--   $10 :keepHistory
--   $11 :changeHorizon
--   $12 :deadIndexes
--   $13 :collapsed
--   $14 :nulsRemoved
--   $15 :filtered
--   $16 :checkpoint
--   $17 :cursorValue
--   $18 :contentHash
--   $19 :body
--   $20 :bytes
--   $21 :requestUrl
--   $22 :status
--   $23 :message
--   $24 :latencyMs
--   $25 :derivation
--   $26 :deadKeys
--   $27 :deadReasons
--   $28 :deadRaws
--   $29 :refreshScope
with locked_run as materialized (
      select id, status from sync_runs where id = $1::uuid and pages = $2::int for update
    ),
    claim as (
      select id from locked_run where status = 'running'
    ),
    page_records as not materialized (
      select * from rows from (unnest($3::text[]), unnest($4::text[]), string_to_table($5::text, E'\n'))
        as t(key, hash, payload)
    ),
    change_ticket as materialized (select pg_advisory_xact_lock(-nextval('records_change_seq') - 1)),
    written as (
      insert into records as r (source, kind, key, payload, content_hash, first_seen_run_id, last_changed_run_id, change_seq)
      select $6::text, $7::text, n.key, n.payload::jsonb, n.hash, coalesce($8::uuid, $1::uuid), coalesce($8::uuid, $1::uuid), nextval('records_change_seq')
      from page_records n, change_ticket
      where exists (select 1 from claim) and true and not ($8::uuid is not null and exists (
        select 1 from records c join sync_runs l on l.id = c.last_changed_run_id
        where c.key_digest = feedsync_key_digest($6::text, n.key) and c.kind = $7::text and c.source = $6::text and c.key = n.key
          and l.started_at > $9::timestamptz and l.run_key not like 'replay/%'
      ))
      returning r.key, r.change_seq, true as inserted
    ),
    closed_versions as (
      update record_versions v set valid_to = now()
      from written w
      where $10::boolean and v.source = $6::text and v.kind = $7::text and v.key = w.key and v.valid_to is null
    ),
    new_versions as (
      insert into record_versions (source, kind, key, payload, content_hash, change_seq, run_id)
      select $6::text, $7::text, w.key, n.payload::jsonb, n.hash, w.change_seq, coalesce($8::uuid, $1::uuid)
      from written w join page_records n on n.key = w.key
      where $10::boolean
    ),
    counts as (
      select (count(*) filter (where inserted))::int as inserted, (count(*) filter (where not inserted))::int as updated,
        -- Null when no record was written: the proof is then the kind's highest change_seq.
        min(change_seq) as seq_min, max(change_seq) as seq_max
      from written
    ),
    page_proof as (
      select counts.seq_min as seq_from, coalesce(counts.seq_max, (select case when h.seq < $11::bigint then h.seq end from (select (select coalesce(max(c.change_seq), 0) from records c where c.kind = $7::text) as seq) h)) as seq_to,
        cardinality($3::text[]) as records, case when counts.seq_min is not null then coalesce($8::uuid, $1::uuid) end as run_id
      from counts
      where cardinality($3::text[]) > 0 and cardinality($12::int[]) = 0
      and $13::int = 0 and $14::int = 0 and $15::int = 0 and counts.inserted + counts.updated in (0, cardinality($3::text[]))
    ),
    run as (
      update sync_runs s
      set checkpoint = $16::jsonb, pages = s.pages + 1,
          records_new = s.records_new + counts.inserted,
          records_updated = s.records_updated + counts.updated,
          records_unchanged = s.records_unchanged + (cardinality($3::text[]) - counts.inserted - counts.updated),
          records_skipped = s.records_skipped + cardinality($12::int[]),
          records_collapsed = s.records_collapsed + $13::int, nul_chars_removed = s.nul_chars_removed + $14::int,
          records_filtered = s.records_filtered + $15::int, cursor_value = $17::text, updated_at = now()
      from counts
      where s.id in (select id from claim)
      returning s.id, s.xmin::text as version
    ),
    page_body as (
      insert into page_bodies (content_hash, body, bytes)
      select $18::text, $19::text::json, $20::int from run
      where $19::text is not null and not exists (select 1 from page_bodies b where b.content_hash = $18::text)
      on conflict (content_hash) do nothing
    ),
    envelope as (
      insert into envelopes (run_id, page_seq, request_url, status, message, bytes, content_hash, latency_ms, proof_seq_from, proof_seq_to, proof_records, proof_run_id, proof_derivation)
      select run.id, $2::int + 1, $21::text, $22::text, $23::text, $20::int, $18::text, $24::int,
        p.seq_from, p.seq_to, p.records, case when p.seq_to is not null then p.run_id end, case when p.seq_to is not null then $25::text end
      from run left join page_proof p on $25::text is not null
    ),
    dead_letters as (
      insert into dead_letters (run_id, page_seq, record_index, key, reason, raw)
      select run.id, $2::int + 1, d.record_index, d.key, d.reason, d.raw
      from run, unnest($12::int[], $26::text[], $27::text[], $28::text[]) as d(record_index, key, reason, raw)
    ),
    refresh_keys as (
      insert into full_refresh_keys as f (scope, source, kind, key, run_id)
      select $29::text, $6::text, $7::text, k.key, run.id
      from run, (select unnest($3::text[]) union select unnest($26::text[])) as k(key)
      where $29::text is not null
      on conflict (scope, source, kind, key) do update set run_id = excluded.run_id where f.run_id <> excluded.run_id
    )
    select (select version from run) as version, inserted, updated from counts
