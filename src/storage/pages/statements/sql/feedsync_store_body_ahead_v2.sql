-- feedsync_store_body_ahead_v2: storeBodyAhead in src/storage/pages/statements/storeBodyAhead.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :contentHash
--   $2 :body
--   $3 :bytes
insert into page_bodies (content_hash, body, bytes)
      select $1::text, $2::text::json, $3::int 
      where $2::text is not null and not exists (select 1 from page_bodies b where b.content_hash = $1::text)
      on conflict (content_hash) do nothing
