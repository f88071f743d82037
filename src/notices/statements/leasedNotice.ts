/** A notice taken for one delivery attempt, as the lease statements return it. */
export interface LeasedNoticeRow {
  id: string;
  run_id: string;
  body: string;
  attempts: number;
  created_at: Date;
}

export const LEASED_COLUMNS = 'id, run_id, body, attempts, created_at';
