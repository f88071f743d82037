-- feedsync_rekey_records_v2: rekeyRecords in src/storage/records/statements/rekeyRecords.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :source
--   $2 :kind
--   $3 :oldKeys
--   $4 :newKeys
with pairs as (
      select p.*, exists (select 1 from records r where r.key_digest = feedsync_key_digest($1::text, p.new_key) and r.kind = $2::text and r.source = $1::text and r.key = p.new_key) as taken
      from unnest($3::text[], $4::text[]) as p(old_key, new_key)
    ),
    moved as (
      update records r set key = p.new_key, change_seq = nextval('records_change_seq')
      from pairs p where not p.taken and r.key_digest = feedsync_key_digest($1::text, p.old_key) and r.kind = $2::text and r.source = $1::text and r.key = p.old_key
      returning p.old_key, p.new_key, r.payload, r.content_hash, r.first_seen_run_id, r.last_changed_run_id, r.first_seen_at, r.changed_at, r.deleted_at
    ),
    left_behind as (
      insert into records (source, kind, key, payload, content_hash, first_seen_run_id, last_changed_run_id, first_seen_at, changed_at, deleted_at)
      select $1::text, $2::text, m.old_key, m.payload, m.content_hash, m.first_seen_run_id, m.last_changed_run_id, m.first_seen_at, m.changed_at, coalesce(m.deleted_at, now())
      from moved m
    ),
    superseded as (
      update records r set deleted_at = now(), change_seq = nextval('records_change_seq')
      from pairs p where p.taken and r.key_digest = feedsync_key_digest($1::text, p.old_key) and r.kind = $2::text and r.source = $1::text and r.key = p.old_key and r.deleted_at is null
      returning p.old_key, p.new_key
    ),
    versions as (
      update record_versions v set key = m.new_key from moved m where v.source = $1::text and v.kind = $2::text and v.key = m.old_key
    ),
    refresh as (
      update full_refresh_keys k set key = m.new_key from moved m where k.source = $1::text and k.kind = $2::text and k.key = m.old_key
    )
    select old_key, new_key, true as moved from moved
    union all
    select old_key, new_key, false from superseded
