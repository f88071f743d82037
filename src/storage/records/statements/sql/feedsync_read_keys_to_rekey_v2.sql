-- feedsync_read_keys_to_rekey_v2: readKeysToRekey in src/storage/records/statements/readKeysToRekey.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :after
--   $2 :source
--   $3 :kind
--   $4 :limit
select key, payload::text as payload from records
    where key > $1::text and source = $2::text and kind = $3::text and deleted_at is null
      and (position('|' in key) > 0 or position('\' in key) > 0 or left(key, 7) = 'sha256:')
    order by key limit $4::int
