-- feedsync_add_run_warning_v1: addRunWarning in src/storage/runs/statements/addRunWarning.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- Parameters:
--   $1 :warning
--   $2 :runId
update sync_runs set warnings = warnings || $1::text where id = $2::uuid and not ($1::text = any (warnings))
