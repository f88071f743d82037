-- feedsync_count_orphan_bodies_v1: countOrphanBodies in src/storage/pages/statements/countOrphanBodies.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- no parameters
select count(*)::int as bodies, coalesce(sum(b.bytes), 0)::text as bytes
    from page_bodies b
    where not exists (select 1 from envelopes e where e.content_hash = b.content_hash)
