-- feedsync_apply_session_settings_v1: applySessionSettings in src/storage/database/statements/applySessionSettings.ts
-- The text as sent, made from the code by `npm run sql:write`: change the code, not this file.
-- no parameters
select set_config(wanted.name, wanted.value, false)
    from (values ('plan_cache_mode', 'force_generic_plan'), ('random_page_cost', '1.1')) as wanted(name, value)
    join pg_settings s on s.name = wanted.name
    where s.source not in ('client', 'user', 'database', 'database user')
