/** What storing records did: how many were new, changed, or left as they were. */
export interface RecordCounts {
  new: number;
  updated: number;
  unchanged: number;
}

/** Counts of a page of `written` records from the statement's inserted and updated tallies. */
export function countsOf(written: number, row: { inserted: number | string; updated: number | string } | undefined): RecordCounts {
  const inserted = Number(row?.inserted ?? 0);
  const updated = Number(row?.updated ?? 0);
  return { new: inserted, updated, unchanged: written - inserted - updated };
}

/** What a run's pages held that did not reach `records` as sent. */
export interface RecordAnomalies {
  /** Records Postgres could not take, kept in `dead_letters` (records.onInvalid: skip). */
  skipped: number;
  /** Records left out because a later record of the same page had the same key. */
  collapsed: number;
  /** NUL characters removed from payloads. */
  nulsRemoved: number;
  /** Records left out by `records.skip`. */
  filtered: number;
}
