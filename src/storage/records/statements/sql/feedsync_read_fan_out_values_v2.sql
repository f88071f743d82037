-- feedsync_read_fan_out_values_v2: readFanOutValues in src/storage/records/statements/readFanOutValues.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :useKey
--   $2 :path
--   $3 :source
--   $4 :kind
select count(*)::int as records, coalesce(array_agg(distinct value order by value) filter (where value is not null and value <> ''), '{}') as values
    from (
      select case when $1::boolean then key else payload #>> $2::text[] end as value
      from records where source = $3::text and kind = $4::text and deleted_at is null
    ) r
