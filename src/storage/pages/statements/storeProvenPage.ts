import { NamedStatement } from '../../database/NamedStatement.js';
import { CLAIM_PAGE, INSERT_ENVELOPE, KIND_HIGHEST_CHANGE, type PageWriteParams } from './pageWriteParts.js';

/** What storeProvenPage needs: the page's envelope and where the run goes, not its records. */
export type StoreProvenPageParams = Omit<PageWriteParams, 'keys' | 'hashes' | 'body' | 'deadIndexes' | 'deadKeys' | 'deadReasons' | 'deadRaws' | 'collapsed' | 'nulsRemoved' | 'filtered' | 'refreshScope' | 'keepHistory' | 'sourceRunId' | 'sourceRunStartedAt'> & {
  derivation: string;
};

/** The row storeProvenPage returns: whether a proof was on record, and if it held, the run row's new version and the page's records. */
export interface StoreProvenPageRow {
  version: string | null;
  records: number | null;
  /** Whether an earlier envelope of this body, request and derivation has a proof (held or not). */
  known: boolean;
  claimed: boolean;
}

/**
 * Stores a page without its records when they are provably stored already, unchanged: an earlier
 * envelope of the same request, body and derivation kept a proof, and the proof still holds.
 * - Its statement drew the change_seq range from..to for all `proof_records` of its records: they
 *   are untouched while that many records of the kind still hold a change_seq in the range (no
 *   other statement draws one in it; a record changed or deleted since took a new one).
 * - It found them all unchanged when the kind's highest change_seq was `to`: they are untouched
 *   while it still is (every change draws a higher one).
 * The records' counts go to `unchanged`; the body is stored already (the earlier envelope refers
 * to it). When no proof holds, nothing is written and the page is stored with its records.
 */
export const storeProvenPage = new NamedStatement<StoreProvenPageParams>(
  'feedsync_store_proven_page_v1',
  `with ${CLAIM_PAGE},
    known_proof as (
      select e.proof_seq_from as seq_from, e.proof_seq_to as seq_to, e.proof_records as records
      from envelopes e
      where e.content_hash = :contentHash::text and e.request_url = :requestUrl::text and e.proof_derivation = :derivation::text and e.proof_seq_to is not null
      order by e.id desc
      limit 1
    ),
    page_proof as (
      select p.seq_from, p.seq_to, p.records from known_proof p
      where case
        when p.seq_from is not null then (select count(*) from records c where c.kind = :kind::text and c.change_seq between p.seq_from and p.seq_to) = p.records
        else ${KIND_HIGHEST_CHANGE} <= p.seq_to
      end
    ),
    run as (
      update sync_runs s
      set checkpoint = :checkpoint::jsonb, pages = s.pages + 1, records_unchanged = s.records_unchanged + page_proof.records,
          cursor_value = :cursorValue::text, updated_at = now()
      from page_proof
      where s.id in (select id from claim)
      returning s.id, s.xmin::text as version
    ),
    ${INSERT_ENVELOPE}
    select (select version from run) as version, (select records from page_proof) as records,
      exists (select 1 from known_proof) as known, exists (select 1 from claim) as claimed`,
);
