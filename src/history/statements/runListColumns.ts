/** A run as the history's lists show it. */
export interface RunListRow {
  id: string;
  query_index: number;
  fan_value: string | null;
  status: string;
  attempt: number;
  crashes: number;
  pages: number;
  records_new: number;
  records_updated: number;
  records_unchanged: number;
  records_skipped: number;
  started_at: Date;
  finished_at: Date | null;
  error_kind: string | null;
  error: string | null;
}

export const RUN_LIST_COLUMNS =
  'id, query_index, fan_value, status, attempt, crashes, pages, records_new, records_updated, records_unchanged, records_skipped, started_at, finished_at, error_kind, error';
