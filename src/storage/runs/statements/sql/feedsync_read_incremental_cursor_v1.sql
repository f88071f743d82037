-- feedsync_read_incremental_cursor_v1: readIncrementalCursor in src/storage/runs/statements/readIncrementalCursor.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :job
--   $2 :queryKey
select value from incremental_cursors where job = $1::text and query_key = $2::text
