-- feedsync_read_schema_views_v1: readSchemaViews in src/analytics/statements/readSchemaViews.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :schema
select c.relname as name, obj_description(c.oid, 'pg_class') as comment from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1::name and c.relkind = 'v'
