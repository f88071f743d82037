-- feedsync_make_records_partitions_v1: makeRecordsPartitions in src/storage/records/statements/makeRecordsPartitions.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :kinds
select k.kind from unnest($1::text[]) as k(kind) where feedsync_records_partition(k.kind)
