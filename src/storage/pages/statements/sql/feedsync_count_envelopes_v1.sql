-- feedsync_count_envelopes_v1: countEnvelopes in src/storage/pages/statements/countEnvelopes.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- no parameters
select count(*) as n, coalesce(sum(bytes), 0) as bytes from envelopes
