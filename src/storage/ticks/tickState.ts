import type { RunIdentity } from '../runs/runState.js';

/** What started a tick: its job's schedule, `feedsync enqueue`, `feedsync run`, or `feedsync replay`. */
export type TickTrigger = 'schedule' | 'enqueue' | 'run' | 'replay';

export type TickStatus = 'running' | 'succeeded' | 'partial' | 'failed';

/** A tick about to be opened: its runs (one per query, or per value of a fan-out query), made up front. */
export interface TickPlan {
  id: string;
  tickKey: string;
  job: string;
  trigger: TickTrigger;
  scheduledFor?: Date;
  runs: RunIdentity[];
  /** Runs left out because the previous run of their query has not ended (overlap: skip). */
  skipped: number;
  /** Why no run could be made (a fan-out field no stored record has): the tick opens failed. */
  error?: string;
}

/** Runs of a tick by how they ended; `done` counts all four. */
export interface TickRunCounts {
  total: number;
  done: number;
  succeeded: number;
  /** Ended with part of their data (see RunState's `partial`). */
  partial: number;
  failed: number;
  skipped: number;
}

/** A tick's records, summed over its ended runs. */
export interface TickRecords {
  new: number;
  updated: number;
  unchanged: number;
  /** Kept in dead_letters rather than stored (records.onInvalid: skip). */
  skipped: number;
}

/** A failed run of a tick, as its notice lists it. */
export interface TickFailedRun {
  runId: string;
  queryIndex: number;
  value: string | null;
  q: string | null;
  errorKind: string | null;
  error: string | null;
}

/** A tick as read from job_ticks. */
export interface TickState {
  id: string;
  tickKey: string;
  job: string;
  trigger: TickTrigger;
  scheduledFor: Date | null;
  status: TickStatus;
  runs: TickRunCounts;
  /** Summed over its ended runs; `skipped`: records kept in dead_letters (records.onInvalid: skip). */
  records: TickRecords;
  error: string | null;
  startedAt: Date;
  finishedAt: Date | null;
}

/** An ended tick with what its notice reports about its failed runs. */
export interface TickOutcome extends TickState {
  /** The first failed runs, oldest first. */
  failedRuns: TickFailedRun[];
  /** Failed runs beyond those listed. */
  failedRunsNotListed: number;
}

/**
 * How an ended tick went: every run succeeded; none succeeded or got part of its data and some
 * failed (or no run could be made); or something in between (some partial, failed or skipped).
 */
export function endedTickStatus(runs: Omit<TickRunCounts, 'total' | 'done'>, error: string | null): Exclude<TickStatus, 'running'> {
  if (error !== null) return 'failed';
  if (runs.partial === 0 && runs.failed === 0 && runs.skipped === 0) return 'succeeded';
  if (runs.succeeded === 0 && runs.partial === 0 && runs.failed > 0) return 'failed';
  return 'partial';
}

export interface TickRow {
  id: string;
  tick_key: string;
  job: string;
  trigger: TickTrigger;
  scheduled_for: Date | null;
  status: TickStatus;
  runs_total: number;
  runs_done: number;
  runs_succeeded: number;
  runs_partial: number;
  runs_failed: number;
  runs_skipped: number;
  records_new: string;
  records_updated: string;
  records_unchanged: string;
  records_skipped: string;
  error: string | null;
  started_at: Date;
  finished_at: Date | null;
}

/** The columns of a TickRow, for statements that return whole ticks. */
export const TICK_COLUMNS =
  'id, tick_key, job, trigger, scheduled_for, status, runs_total, runs_done, runs_succeeded, runs_partial, runs_failed, runs_skipped, records_new, records_updated, records_unchanged, records_skipped, error, started_at, finished_at';

export function tickStateOf(row: TickRow): TickState {
  return {
    id: row.id,
    tickKey: row.tick_key,
    job: row.job,
    trigger: row.trigger,
    scheduledFor: row.scheduled_for,
    status: row.status,
    runs: { total: row.runs_total, done: row.runs_done, succeeded: row.runs_succeeded, partial: row.runs_partial, failed: row.runs_failed, skipped: row.runs_skipped },
    // bigint sums: exact as numbers up to 2^53 records, far beyond any tick.
    records: { new: Number(row.records_new), updated: Number(row.records_updated), unchanged: Number(row.records_unchanged), skipped: Number(row.records_skipped) },
    error: row.error,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}
