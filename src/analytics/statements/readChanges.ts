import { NamedStatement } from '../../storage/database/NamedStatement.js';

export interface ReadChangesParams {
  kind: string;
  /** null: every source. */
  source: string | null;
  /** As text: change_seq is a bigint. */
  after: string;
  /** The change horizon read before (readChangeHorizon): only changes below it are read. */
  horizon: string;
  limit: number;
}

/** A record as the change feed gives it: its payload as Postgres writes the JSON (numbers exact). */
export interface ChangeRow {
  change_seq: string;
  source: string;
  key: string;
  payload: string;
  changed_at: Date;
  deleted_at: Date | null;
}

/** The next changes of a kind after a position and below the change horizon, in change_seq order, on records_kind_change_seq_idx. */
export const readChanges = new NamedStatement<ReadChangesParams>(
  'feedsync_read_changes_v2',
  `select change_seq::text as change_seq, source, key, payload::text as payload, changed_at, deleted_at
   from records
   where kind = :kind::text and change_seq > :after::bigint and change_seq < :horizon::bigint and (:source::text is null or source = :source::text)
   order by records.change_seq
   limit :limit::int`,
);
