import { NamedStatement } from '../../database/NamedStatement.js';

/** Keeps a warning on a run, once however often it comes (see RunWarnings). */
export const addRunWarning = new NamedStatement<{ runId: string; warning: string }>(
  'feedsync_add_run_warning_v1',
  `update sync_runs set warnings = warnings || :warning::text where id = :runId::uuid and not (:warning::text = any (warnings))`,
);
