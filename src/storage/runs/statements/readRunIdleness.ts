import { NamedStatement } from '../../database/NamedStatement.js';

export interface RunIdlenessRow {
  job: string;
  status: string;
  idle_s: number;
}

/**
 * Per job and unfinished status (queued, running, interrupted, retrying): how long the longest
 * idle of those runs has gone without its row changing. The statuses are literals so that the
 * partial index on unfinished runs serves it.
 */
export const readRunIdleness = new NamedStatement<Record<string, never>>(
  'feedsync_read_run_idleness_v1',
  `select job, status, extract(epoch from now() - min(updated_at))::float8 as idle_s
    from sync_runs
    where status in ('queued', 'running', 'interrupted', 'retrying')
    group by job, status`,
);
