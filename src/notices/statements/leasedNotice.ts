/** A notice taken for one delivery attempt, as the lease statements return it. */
export interface LeasedNoticeRow {
  id: string;
  /** What it reports: a run, or a job tick. */
  run_id: string | null;
  tick_id: string | null;
  body: string;
  /** The trace its delivery continues (see notices.traceparent). */
  traceparent: string | null;
  attempts: number;
  created_at: Date;
}

export const LEASED_COLUMNS = 'id, run_id, tick_id, body, traceparent, attempts, created_at';
