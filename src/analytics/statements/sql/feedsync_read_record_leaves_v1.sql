-- feedsync_read_record_leaves_v1: readRecordLeaves in src/analytics/statements/readRecordLeaves.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :kind
--   $2 :source
--   $3 :sample
with recursive sampled as (
      select source || '/' || key as record, payload from records
      where kind = $1::text and ($2::text is null or source = $2::text) and deleted_at is null
      order by change_seq desc limit $3::int
    ),
    leaves(record, path, value) as (
      select s.record, array[e.key], e.value from sampled s, jsonb_each(case when jsonb_typeof(s.payload) = 'object' then s.payload else '{}' end) e
      union all
      select l.record, l.path || e.key, e.value from leaves l, jsonb_each(l.value) e where jsonb_typeof(l.value) = 'object'
    )
    select record, path, jsonb_typeof(value) as type, case when jsonb_typeof(value) in ('string', 'number', 'boolean') then value #>> '{}' end as text
    from leaves
