-- feedsync_take_change_ticket_v1: takeChangeTicket in src/storage/records/statements/takeChangeTicket.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- no parameters
select pg_advisory_xact_lock(-nextval('records_change_seq') - 1)
