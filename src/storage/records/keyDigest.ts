/**
 * `records` is keyed by (key_digest, kind) (migration 0022). key_digest, a column Postgres
 * generates, is the first 16 bytes of the sha256 of the record's source and key
 * (feedsync_key_digest): an index entry of about 40 bytes whatever the key, against about 100 for
 * a transaction hash beside its source and kind, so the key index stays in memory for longer.
 * Statements find a record by its digest (the index) and then its source and key (exact), so two
 * keys that shared a digest would never be taken for one another.
 */

/** ON CONFLICT's target on `records`: its primary key. */
export const RECORDS_CONFLICT = '(key_digest, kind)';

/**
 * Matches the row `alias` of records to the record of source `source` and kind `kind` with the
 * key `key` (SQL expressions), through records' primary key.
 */
export function recordOfKey(alias: string, key: string, source = ':source::text', kind = ':kind::text'): string {
  return `${alias}.key_digest = feedsync_key_digest(${source}, ${key}) and ${alias}.kind = ${kind} and ${alias}.source = ${source} and ${alias}.key = ${key}`;
}

/**
 * ON CONFLICT's `where` for the stored row `r` and the one offered (`excluded`): `changed`, unless
 * their keys differ and only share a digest, when feedsync_key_collision stops the statement with
 * both keys named rather than write one record over the other.
 */
export function unlessKeysCollide(changed: string): string {
  return `case when r.key <> excluded.key or r.source <> excluded.source then feedsync_key_collision(r.source, r.key, excluded.source, excluded.key) else ${changed} end`;
}
