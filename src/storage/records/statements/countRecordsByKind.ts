import { NamedStatement } from '../../database/NamedStatement.js';

/** n: a bigint, as text. */
export interface RecordCountRow {
  source: string;
  kind: string;
  n: string;
}

/** How many records each source and kind holds, deleted ones included, in source and kind order. */
export const countRecordsByKind = new NamedStatement<Record<string, never>>(
  'feedsync_count_records_by_kind_v1',
  'select source, kind, count(*) as n from records group by 1, 2 order by 1, 2',
);
