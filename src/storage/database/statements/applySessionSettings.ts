import { NamedStatement } from '../NamedStatement.js';

/**
 * Planner settings for feedsync's sessions, applied as each connection opens. Its statements look
 * rows up by key, a handful at a time, in tables whose hot pages are cached:
 * - `plan_cache_mode`: one generic plan serves every execution of a prepared statement. Left to
 *   itself, Postgres re-plans the batch statements on every call (a parameter array of unknown
 *   length makes the generic plan look dearer than a custom one), and planning costs more than
 *   running them.
 * - `random_page_cost`: the usual value for SSDs and cached data. At the default 4, a generic
 *   plan prefers a sequential scan of a table of a few thousand rows to a handful of index lookups.
 * A value already chosen for the connection, role or database (startup options, PGOPTIONS,
 * ALTER ROLE/DATABASE … SET) is left as it is, so a deployment can opt out.
 */
export const applySessionSettings = new NamedStatement<Record<string, never>>(
  'feedsync_apply_session_settings_v1',
  `select set_config(wanted.name, wanted.value, false)
    from (values ('plan_cache_mode', 'force_generic_plan'), ('random_page_cost', '1.1')) as wanted(name, value)
    join pg_settings s on s.name = wanted.name
    where s.source not in ('client', 'user', 'database', 'database user')`,
);
