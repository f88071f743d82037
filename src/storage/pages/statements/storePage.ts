import { NamedStatement } from '../../database/NamedStatement.js';
import {
  ADD_PAGE_ANOMALIES,
  CLAIM_PAGE,
  INSERT_DEAD_LETTERS,
  INSERT_ENVELOPE,
  INSERT_PAGE_BODY,
  KIND_HIGHEST_BELOW_HORIZON,
  NEWER_VERSION_STORED,
  NOTE_REFRESH_KEYS,
  PAGE_WITHOUT_ANOMALIES,
  RECORDS_RUN,
  type PageWriteParams,
} from './pageWriteParts.js';
import { CHANGE_TICKET } from '../../records/statements/takeChangeTicket.js';
import { RECORDS_CONFLICT, recordOfKey, unlessKeysCollide } from '../../records/keyDigest.js';

export interface StorePageParams extends PageWriteParams {
  /** The records' JSON documents, one a line in key order, as UTF-8 (see PayloadLines); null when there are none. */
  payloads: Buffer | null;
}

/** The row storePage returns: the run row's new version (null if the run moved on), and the records written. */
export interface StorePageRow {
  version: string | null;
  inserted: number;
  updated: number;
}

/**
 * Stores a page in one statement: locks the run if it still stands at :pagesBefore, inserts or
 * upserts the records, moves the checkpoint and counters, and inserts the envelope, each write
 * depending on that lock.
 *
 * A record that is new, changed, or back after a full refresh marked it deleted takes the next
 * change_seq, after the statement's change ticket (see takeChangeTicket); for an append query its version is also kept in record_versions,
 * the one before it closed.
 *
 * A record whose content hash is unchanged is never rewritten (no new row version, no WAL):
 * ON CONFLICT's `where` leaves it alone. How a page's records are written (see RecordWrite) is
 * chosen by what the page is expected to hold.
 *
 * The envelope keeps a proof of the page's records when they were all written (the change_seq
 * range drawn for them, and the run they were written as) or all found unchanged (the kind's
 * highest change_seq, when below :changeHorizon): see storeProvenPage.
 *
 * `page_records` is NOT MATERIALIZED: used twice, it would be copied once more into a CTE's own
 * tuplestore (a megabyte a page), though its second use, an append query's versions, is skipped
 * for the others (for an append page the payloads are then split twice). Inlined, a page costs the
 * backend less CPU (docs/benchmarks.md).
 */
function storePageSql(write: RecordWrite): string {
  const changedOrNew =
    write === 'lookUpUnchanged'
      ? `n.hash is distinct from (select c.content_hash from records c where ${recordOfKey('c', 'n.key')} and c.deleted_at is null)`
      : 'true';
  // Inserted, not updated: first seen by this run in this transaction (a partition's row has no
  // xmax to ask; the run's earlier pages were stored in transactions that started before this one).
  const onStored =
    write === 'insert'
      ? 'returning r.key, r.change_seq, true as inserted'
      : `on conflict ${RECORDS_CONFLICT} do update
        set payload = excluded.payload, content_hash = excluded.content_hash,
            last_changed_run_id = excluded.last_changed_run_id, changed_at = now(), change_seq = excluded.change_seq, deleted_at = null
        where ${unlessKeysCollide('r.content_hash <> excluded.content_hash or r.deleted_at is not null')}
      returning r.key, r.change_seq, (r.first_seen_run_id = ${RECORDS_RUN} and r.first_seen_at = now()) as inserted`;
  return `with ${CLAIM_PAGE},
    page_records as not materialized (
      select * from rows from (unnest(:keys::text[]), unnest(:hashes::text[]), string_to_table(:payloads::text, E'\\n'))
        as t(key, hash, payload)
    ),
    ${CHANGE_TICKET},
    written as (
      insert into records as r (source, kind, key, payload, content_hash, first_seen_run_id, last_changed_run_id, change_seq)
      select :source::text, :kind::text, n.key, n.payload::jsonb, n.hash, ${RECORDS_RUN}, ${RECORDS_RUN}, nextval('records_change_seq')
      from page_records n, change_ticket
      where exists (select 1 from claim) and ${changedOrNew} and not (${NEWER_VERSION_STORED})
      ${onStored}
    ),
    closed_versions as (
      update record_versions v set valid_to = now()
      from written w
      where :keepHistory::boolean and v.source = :source::text and v.kind = :kind::text and v.key = w.key and v.valid_to is null
    ),
    new_versions as (
      insert into record_versions (source, kind, key, payload, content_hash, change_seq, run_id)
      select :source::text, :kind::text, w.key, n.payload::jsonb, n.hash, w.change_seq, ${RECORDS_RUN}
      from written w join page_records n on n.key = w.key
      where :keepHistory::boolean
    ),
    counts as (
      select (count(*) filter (where inserted))::int as inserted, (count(*) filter (where not inserted))::int as updated,
        -- Null when no record was written: the proof is then the kind's highest change_seq.
        min(change_seq) as seq_min, max(change_seq) as seq_max
      from written
    ),
    page_proof as (
      select counts.seq_min as seq_from, coalesce(counts.seq_max, ${KIND_HIGHEST_BELOW_HORIZON}) as seq_to,
        cardinality(:keys::text[]) as records, case when counts.seq_min is not null then ${RECORDS_RUN} end as run_id
      from counts
      where ${PAGE_WITHOUT_ANOMALIES} and counts.inserted + counts.updated in (0, cardinality(:keys::text[]))
    ),
    run as (
      update sync_runs s
      set checkpoint = :checkpoint::jsonb, pages = s.pages + 1,
          records_new = s.records_new + counts.inserted,
          records_updated = s.records_updated + counts.updated,
          records_unchanged = s.records_unchanged + (cardinality(:keys::text[]) - counts.inserted - counts.updated),
          ${ADD_PAGE_ANOMALIES}, cursor_value = :cursorValue::text, updated_at = now()
      from counts
      where s.id in (select id from claim)
      returning s.id, s.xmin::text as version
    ),
    ${INSERT_PAGE_BODY},
    ${INSERT_ENVELOPE},
    ${INSERT_DEAD_LETTERS},
    ${NOTE_REFRESH_KEYS}
    select (select version from run) as version, inserted, updated from counts`;
}

/**
 * How a page's records go into the table:
 * - `lookUpUnchanged`: each record is first looked up by its key, and only one whose hash differs
 *   goes to the upsert, so that ON CONFLICT does not row-lock an unchanged one (which dirties its
 *   page and writes WAL): that is what makes a re-sync cheap.
 * - `upsert`: the same without the lookup, which is wasted work for records new or changed.
 * - `insert`: a plain insert, for records expected to be new (a first sync): no ON CONFLICT, whose
 *   speculative insertion costs an extra index probe and WAL record per row (docs/benchmarks.md).
 *   A key already stored fails the whole statement with a
 *   unique violation of records' primary key, and nothing of the page is written: the caller
 *   then stores it otherwise.
 */
type RecordWrite = 'lookUpUnchanged' | 'upsert' | 'insert';

/** For pages that may hold unchanged records (a re-sync). */
export const storePageLookingUpUnchanged = new NamedStatement<StorePageParams>('feedsync_store_page_v17', storePageSql('lookUpUnchanged'));

/** For pages expected to hold only new or changed records. */
export const storePageUpsertingRecords = new NamedStatement<StorePageParams>('feedsync_store_page_direct_v17', storePageSql('upsert'));

/** For pages expected to hold only records never stored (a first sync); see RecordWrite. */
export const storePageInsertingRecords = new NamedStatement<StorePageParams>('feedsync_store_page_insert_v8', storePageSql('insert'));

/**
 * The constraints a plain insert of a stored key violates (see RecordWrite): the primary key of
 * the kind's partition of `records` (migration 0019), or of its default partition. A key that
 * shares another's digest violates none of these (see unlessKeysCollide).
 */
export const RECORDS_PRIMARY_KEY = /^records_(of_[a-z0-9_]+|default)_pkey$/;
