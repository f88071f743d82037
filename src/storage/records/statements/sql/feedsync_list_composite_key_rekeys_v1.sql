-- feedsync_list_composite_key_rekeys_v1: listCompositeKeyRekeys in src/storage/records/statements/listCompositeKeyRekeys.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- no parameters
select source, kind from composite_key_rekeys order by source, kind
