-- feedsync_insert_tick_notice_v2: insertTickNotice in src/storage/ticks/statements/insertTickNotice.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :id
--   $2 :tickId
--   $3 :type
--   $4 :body
insert into notices (id, tick_id, type, body, traceparent)
    select $1::text, $2::uuid, $3::text, $4::text, (select traceparent from job_ticks where id = $2::uuid)
    on conflict do nothing
