import { NamedStatement } from '../../database/NamedStatement.js';
import { recordOfKey } from '../../records/keyDigest.js';
import {
  ADD_PAGE_ANOMALIES,
  CLAIM_PAGE,
  INSERT_DEAD_LETTERS,
  INSERT_ENVELOPE,
  INSERT_PAGE_BODY,
  KIND_HIGHEST_BELOW_HORIZON,
  NOTE_REFRESH_KEYS,
  PAGE_WITHOUT_ANOMALIES,
  type PageWriteParams,
} from './pageWriteParts.js';

/** The row storeUnchangedPage returns: the run row's new version (null if nothing was written), and whether the run was still at :pagesBefore. */
export interface StoreUnchangedPageRow {
  version: string | null;
  claimed: boolean;
}

/**
 * Stores a page expected to hold no change (as the run's last page did), sent without the
 * records' payloads. When every hash matches the one stored (of a record not marked deleted), it stores the page (envelope,
 * checkpoint, counters); otherwise it writes nothing, and the page is stored again with its
 * payloads by storePage. Its envelope keeps the kind's highest change_seq as the proof of its records (when below :changeHorizon).
 */
export const storeUnchangedPage = new NamedStatement<PageWriteParams>(
  'feedsync_store_unchanged_page_v12',
  `with ${CLAIM_PAGE},
    changed as (
      select 1 from unnest(:keys::text[], :hashes::text[]) as n(key, hash)
      where n.hash is distinct from (select c.content_hash from records c where ${recordOfKey('c', 'n.key')} and c.deleted_at is null)
      limit 1
    ),
    run as (
      update sync_runs s
      set checkpoint = :checkpoint::jsonb, pages = s.pages + 1, records_unchanged = s.records_unchanged + cardinality(:keys::text[]),
          ${ADD_PAGE_ANOMALIES}, cursor_value = :cursorValue::text, updated_at = now()
      where s.id in (select id from claim) and not exists (select 1 from changed)
      returning s.id, s.xmin::text as version
    ),
    page_proof as (
      select null::bigint as seq_from, ${KIND_HIGHEST_BELOW_HORIZON} as seq_to, cardinality(:keys::text[]) as records, null::uuid as run_id where ${PAGE_WITHOUT_ANOMALIES}
    ),
    ${INSERT_PAGE_BODY},
    ${INSERT_ENVELOPE},
    ${INSERT_DEAD_LETTERS},
    ${NOTE_REFRESH_KEYS}
    select (select version from run) as version, exists (select 1 from claim) as claimed`,
);
