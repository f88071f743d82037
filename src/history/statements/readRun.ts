import { NamedStatement } from '../../storage/database/NamedStatement.js';
import type { RunListRow } from './runListColumns.js';

export interface ReadRunParams {
  runId: string;
}

/** A run with its query, its tick and its notice (null columns when it has none). */
export interface RunDetailRow extends RunListRow {
  run_key: string;
  job: string;
  source: string;
  query: unknown;
  tick_id: string | null;
  scheduled_for: Date | null;
  stop_reason: string | null;
  records_skipped: number;
  /** What the upstream said beside the data it sent, each once. */
  warnings: string[];
  /** The OpenTelemetry trace of its latest attempt; null while tracing is off. */
  trace_id: string | null;
  notice_id: string | null;
  /** Whether the notice reports the run's tick (job notices) rather than the run alone. */
  notice_for_tick: boolean | null;
  notice_type: string | null;
  notice_state: string | null;
  notice_attempts: number | null;
  notice_created_at: Date | null;
  notice_delivered_at: Date | null;
  notice_last_error: string | null;
}

/** One run, with the notice that reports it: its own, or else its tick's. */
export const readRun = new NamedStatement<ReadRunParams>(
  'feedsync_history_run_v3',
  `select r.id, r.run_key, r.job, r.source, r.query_index, r.query, r.fan_value, r.tick_id, r.status, r.attempt, r.crashes, r.pages,
      r.records_new, r.records_updated, r.records_unchanged, r.records_skipped, r.scheduled_for, r.started_at, r.finished_at, r.stop_reason, r.error_kind, r.error, r.warnings, r.trace_id,
      n.id as notice_id, n.tick_id is not null as notice_for_tick, n.type as notice_type, n.state as notice_state, n.attempts as notice_attempts, n.created_at as notice_created_at,
      n.delivered_at as notice_delivered_at, n.last_error as notice_last_error
    from sync_runs r
    left join lateral (
      select * from notices where run_id = r.id or tick_id = r.tick_id order by run_id is null limit 1
    ) n on true
    where r.id = :runId::uuid`,
);
