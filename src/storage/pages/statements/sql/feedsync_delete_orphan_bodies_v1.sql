-- feedsync_delete_orphan_bodies_v1: deleteOrphanBodies in src/storage/pages/statements/deleteOrphanBodies.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :after
--   $2 :limit
with looked as (
      select content_hash from page_bodies where content_hash > $1::text order by content_hash limit $2::int
    ),
    deleted as (
      delete from page_bodies b using looked l
      where b.content_hash = l.content_hash and not exists (select 1 from envelopes e where e.content_hash = b.content_hash)
      returning b.bytes
    )
    select (select max(content_hash) from looked) as last, (select count(*)::int from deleted) as bodies, (select coalesce(sum(bytes), 0)::text from deleted) as bytes
