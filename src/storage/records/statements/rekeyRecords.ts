import { NamedStatement } from '../../database/NamedStatement.js';
import { recordOfKey } from '../keyDigest.js';

export interface RekeyRecordsParams {
  source: string;
  kind: string;
  oldKeys: string[];
  newKeys: string[];
}

/**
 * Moves records of one kind from their old key to their new one, with their versions and
 * full_refresh keys, and leaves a deletion at the old key, each with a new change_seq: a reader
 * of the change feed sees the old key deleted and the record upserted under its new key (take
 * a change ticket first). A record whose new key a later run has stored already is only
 * marked deleted at its old key. Returns the keys moved, and those only deleted (`moved` false).
 */
export const rekeyRecords = new NamedStatement<RekeyRecordsParams>(
  'feedsync_rekey_records_v2',
  `with pairs as (
      select p.*, exists (select 1 from records r where ${recordOfKey('r', 'p.new_key')}) as taken
      from unnest(:oldKeys::text[], :newKeys::text[]) as p(old_key, new_key)
    ),
    moved as (
      update records r set key = p.new_key, change_seq = nextval('records_change_seq')
      from pairs p where not p.taken and ${recordOfKey('r', 'p.old_key')}
      returning p.old_key, p.new_key, r.payload, r.content_hash, r.first_seen_run_id, r.last_changed_run_id, r.first_seen_at, r.changed_at, r.deleted_at
    ),
    left_behind as (
      insert into records (source, kind, key, payload, content_hash, first_seen_run_id, last_changed_run_id, first_seen_at, changed_at, deleted_at)
      select :source::text, :kind::text, m.old_key, m.payload, m.content_hash, m.first_seen_run_id, m.last_changed_run_id, m.first_seen_at, m.changed_at, coalesce(m.deleted_at, now())
      from moved m
    ),
    superseded as (
      update records r set deleted_at = now(), change_seq = nextval('records_change_seq')
      from pairs p where p.taken and ${recordOfKey('r', 'p.old_key')} and r.deleted_at is null
      returning p.old_key, p.new_key
    ),
    versions as (
      update record_versions v set key = m.new_key from moved m where v.source = :source::text and v.kind = :kind::text and v.key = m.old_key
    ),
    refresh as (
      update full_refresh_keys k set key = m.new_key from moved m where k.source = :source::text and k.kind = :kind::text and k.key = m.old_key
    )
    select old_key, new_key, true as moved from moved
    union all
    select old_key, new_key, false from superseded`,
);
