-- feedsync_read_change_horizon_v2: readChangeHorizon in src/storage/records/statements/readChangeHorizon.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- no parameters
with drawn as materialized (
      select case when is_called then last_value + 1 else last_value end as next from records_change_seq
    ),
    change_horizon as (
      select least(drawn.next, held.oldest)::text as horizon
      from drawn cross join lateral (
        -- A bigint advisory key k shows as classid = k >> 32, objid = its low 32 bits; tickets are negative.
        select min(-(((l.classid::bigint << 32) | l.objid::bigint)) - 1) as oldest
        from pg_locks l
        where l.locktype = 'advisory' and l.objsubid = 1 and l.classid::bigint >= 2147483648 and drawn.next is not null
          and l.database = (select oid from pg_database where datname = current_database())
      ) held
    )
    select horizon from change_horizon
