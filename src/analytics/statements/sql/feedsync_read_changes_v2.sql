-- feedsync_read_changes_v2: readChanges in src/analytics/statements/readChanges.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :kind
--   $2 :after
--   $3 :horizon
--   $4 :source
--   $5 :limit
select change_seq::text as change_seq, source, key, payload::text as payload, changed_at, deleted_at
   from records
   where kind = $1::text and change_seq > $2::bigint and change_seq < $3::bigint and ($4::text is null or source = $4::text)
   order by records.change_seq
   limit $5::int
