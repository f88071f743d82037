import { NamedStatement } from '../../database/NamedStatement.js';

export interface ReadKeysToRekeyParams {
  source: string;
  kind: string;
  /** The last key of the batch before ('' for the first). */
  after: string;
  limit: number;
}

export interface KeyToRekeyRow {
  key: string;
  /** The record's payload as JSON text. */
  payload: string;
}

/**
 * The next batch, in key order, of a kind's records not deleted whose key holds a `|` or a `\`,
 * or is a long key's digest: the only ones an escaped composite key can write otherwise.
 */
export const readKeysToRekey = new NamedStatement<ReadKeysToRekeyParams>(
  'feedsync_read_keys_to_rekey_v2',
  `select key, payload::text as payload from records
    where key > :after::text and source = :source::text and kind = :kind::text and deleted_at is null
      and (position('|' in key) > 0 or position('\\' in key) > 0 or left(key, 7) = 'sha256:')
    order by key limit :limit::int`,
);
