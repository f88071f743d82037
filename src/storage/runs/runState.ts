import type { RecordAnomalies, RecordCounts } from '../records/recordCounts.js';

/** What identifies a run and what it asks for; `runKey` makes a run happen once. */
export interface RunIdentity {
  /** Chosen up front for manual runs so the caller can print it; generated otherwise. */
  id?: string;
  runKey: string;
  job: string;
  source: string;
  queryIndex: number;
  queryKey: string;
  query: { q: string | null; params: Record<string, string> };
  scheduledFor?: Date;
  /** The job tick the run is part of. */
  tickId?: string;
  /** A fan-out query's value for this run. */
  value?: string;
  /** The OpenTelemetry trace of this attempt, kept on the run's row (`trace_id`) when recorded. */
  traceId?: string;
}

/** A run that has ended for good: nothing writes its status again. */
export function isEnded(status: RunState['status']): status is 'succeeded' | 'partial' | 'failed' {
  return status === 'succeeded' || status === 'partial' || status === 'failed';
}

/** A run that waits in the queue to go on: it has no finish time. */
export function isPaused(status: RunState['status']): boolean {
  return status === 'interrupted' || status === 'retrying';
}

export interface RunState {
  id: string;
  runKey: string;
  job: string;
  source: string;
  queryIndex: number;
  queryKey: string;
  query: RunIdentity['query'];
  tickId: string | null;
  value: string | null;
  attempt: number;
  crashes: number;
  /**
   * `queued`: created with its tick, waiting for a worker.
   * `interrupted`: stopped by a shutdown after a stored page; `retrying`: failed with attempts
   * left. Both resume from their checkpoint when the queue takes them up again.
   * `partial`: ended with part of the data (stopped at maxPages, at a window it could not slide
   * past, or short of the upstream's stated total); `error_kind` and `error` say which and why.
   */
  status: 'queued' | 'running' | 'interrupted' | 'retrying' | 'succeeded' | 'partial' | 'failed';
  /** The pipeline's resume point, stored as JSON; opaque here. */
  checkpoint: unknown;
  pages: number;
  counts: RecordCounts;
  anomalies: RecordAnomalies;
  /** Records a complete full_refresh run marked deleted (returned before, not any more). */
  recordsDeleted: number;
  /** What the upstream said beside the data it sent (see RunWarnings), each once. */
  warnings: string[];
  cursorValue: string | null;
  startedAt: Date;
  finishedAt: Date | null;
  errorKind: string | null;
  error: string | null;
  /** The row version (xmin) this state was read or written as; a write fenced on it fails if the row moved since. */
  version: string;
}

/** How a run ended, or paused (`interrupted`, `retrying`), as its finish records it. */
export interface RunOutcome {
  status: 'succeeded' | 'partial' | 'failed' | 'interrupted' | 'retrying';
  stopReason?: string;
  errorKind?: string;
  error?: string;
  /** For incremental queries: the field and value to keep for the next run (succeeded and partial runs only). */
  cursor?: { field: string; value: string };
  /** Crashes of the run's worker known at the finish, when more than its row holds (the crash that ended it). */
  crashes?: number;
}

/** A completion notice to insert into the outbox with a run's finish. */
export interface NoticeToQueue {
  id: string;
  type: string;
  body: string;
  /** The W3C trace context it was made in (its run's span), which its delivery continues; absent while tracing is off. */
  traceparent?: string;
}

/** sync_runs as the statements that read whole runs return it (RUN_COLUMNS). */
export interface RunRow {
  id: string;
  run_key: string;
  job: string;
  source: string;
  query_index: number;
  query_key: string;
  query: RunIdentity['query'];
  tick_id: string | null;
  fan_value: string | null;
  attempt: number;
  crashes: number;
  status: RunState['status'];
  checkpoint: unknown;
  pages: number;
  records_new: number;
  records_updated: number;
  records_unchanged: number;
  records_skipped: number;
  records_collapsed: number;
  nul_chars_removed: number;
  records_filtered: number;
  records_deleted: number;
  warnings: string[];
  cursor_value: string | null;
  started_at: Date;
  finished_at: Date | null;
  error_kind: string | null;
  error: string | null;
  version: string;
}

/** The columns of a RunRow, for statements that return whole runs. */
export const RUN_COLUMNS =
  'id, run_key, job, source, query_index, query_key, query, tick_id, fan_value, attempt, crashes, status, checkpoint, pages, records_new, records_updated, records_unchanged, records_skipped, records_collapsed, nul_chars_removed, records_filtered, records_deleted, warnings, cursor_value, started_at, finished_at, error_kind, error, xmin::text as version';

export function runStateOf(row: RunRow): RunState {
  return {
    id: row.id,
    runKey: row.run_key,
    job: row.job,
    source: row.source,
    queryIndex: row.query_index,
    queryKey: row.query_key,
    query: row.query,
    tickId: row.tick_id,
    value: row.fan_value,
    attempt: row.attempt,
    crashes: row.crashes,
    status: row.status,
    checkpoint: row.checkpoint,
    pages: row.pages,
    counts: { new: row.records_new, updated: row.records_updated, unchanged: row.records_unchanged },
    anomalies: { skipped: row.records_skipped, collapsed: row.records_collapsed, nulsRemoved: row.nul_chars_removed, filtered: row.records_filtered },
    recordsDeleted: row.records_deleted,
    warnings: row.warnings,
    cursorValue: row.cursor_value,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    errorKind: row.error_kind,
    error: row.error,
    version: row.version,
  };
}
