-- feedsync_end_composite_key_rekey_v1: endCompositeKeyRekey in src/storage/records/statements/endCompositeKeyRekey.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :source
--   $2 :kind
delete from composite_key_rekeys where source = $1::text and kind = $2::text
