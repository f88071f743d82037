import { NamedStatement } from '../../database/NamedStatement.js';
import type { TickRow } from '../tickState.js';

/** A tick with its notice's delivery state (null: none). */
export type RecentTickRow = TickRow & { notice: string | null };

/** The most recent ticks, newest first. */
export const readRecentTicks = new NamedStatement<{ limit: number }>(
  'feedsync_read_recent_ticks_v1',
  `select t.id, t.tick_key, t.job, t.trigger, t.scheduled_for, t.status, t.runs_total, t.runs_done, t.runs_succeeded, t.runs_partial, t.runs_failed,
      t.runs_skipped, t.records_new, t.records_updated, t.records_unchanged, t.records_skipped, t.error, t.started_at, t.finished_at, n.state as notice
    from job_ticks t left join notices n on n.tick_id = t.id
    order by t.started_at desc
    limit :limit::int`,
);
