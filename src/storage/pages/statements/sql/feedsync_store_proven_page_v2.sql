-- feedsync_store_proven_page_v2: storeProvenPage in src/storage/pages/statements/storeProvenPage.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :runId
--   $2 :pagesBefore
--   $3 :contentHash
--   $4 :requestUrl
--   $5 :derivation
--   $6 :kind
--   $7 :checkpoint
--   $8 :cursorValue
--   $9 :status
--   $10 :message
--   $11 :bytes
--   $12 :latencyMs
with locked_run as materialized (
      select id, status from sync_runs where id = $1::uuid and pages = $2::int for update
    ),
    claim as (
      select id from locked_run where status = 'running'
    ),
    known_proof as (
      select e.proof_seq_from as seq_from, e.proof_seq_to as seq_to, e.proof_records as records, e.proof_run_id as run_id
      from envelopes e
      where e.content_hash = $3::text and e.request_url = $4::text and e.proof_derivation = $5::text and e.proof_seq_to is not null
      order by e.id desc
      limit 1
    ),
    page_proof as (
      select p.seq_from, p.seq_to, p.records, p.run_id from known_proof p
      where case
        when p.seq_from is not null then (
          select count(*) from records c
          where c.kind = $6::text and c.change_seq between p.seq_from and p.seq_to and (p.run_id is null or c.last_changed_run_id = p.run_id)
        ) = p.records
        else (select coalesce(max(c.change_seq), 0) from records c where c.kind = $6::text) <= p.seq_to
      end
    ),
    run as (
      update sync_runs s
      set checkpoint = $7::jsonb, pages = s.pages + 1, records_unchanged = s.records_unchanged + page_proof.records,
          cursor_value = $8::text, updated_at = now()
      from page_proof
      where s.id in (select id from claim)
      returning s.id, s.xmin::text as version
    ),
    envelope as (
      insert into envelopes (run_id, page_seq, request_url, status, message, bytes, content_hash, latency_ms, proof_seq_from, proof_seq_to, proof_records, proof_run_id, proof_derivation)
      select run.id, $2::int + 1, $4::text, $9::text, $10::text, $11::int, $3::text, $12::int,
        p.seq_from, p.seq_to, p.records, case when p.seq_to is not null then p.run_id end, case when p.seq_to is not null then $5::text end
      from run left join page_proof p on $5::text is not null
    )
    select (select version from run) as version, (select records from page_proof) as records,
      exists (select 1 from known_proof) as known, exists (select 1 from claim) as claimed
