-- feedsync_count_records_by_kind_v1: countRecordsByKind in src/storage/records/statements/countRecordsByKind.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- no parameters
select source, kind, count(*) as n from records group by 1, 2 order by 1, 2
