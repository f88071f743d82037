import { NamedStatement } from '../../database/NamedStatement.js';
import { CLAIM_PAGE, INSERT_ENVELOPE, KIND_HIGHEST_CHANGE, type PageWriteParams } from './pageWriteParts.js';

/** What storeProvenPage needs: the page's envelope and where the run goes, not its records. */
export type StoreProvenPageParams = Omit<PageWriteParams, 'keys' | 'hashes' | 'body' | 'deadIndexes' | 'deadKeys' | 'deadReasons' | 'deadRaws' | 'collapsed' | 'nulsRemoved' | 'filtered' | 'refreshScope' | 'keepHistory' | 'sourceRunId' | 'sourceRunStartedAt' | 'changeHorizon'> & {
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
 * - Its statement drew change_seq values from..to for all `proof_records` of its records, written
 *   as run `proof_run_id`: they are untouched while that many records of the kind written as that
 *   run still hold a change_seq in the range. A record changed or deleted since took a higher one;
 *   other statements may have drawn numbers in the range, but for other runs (one run stores one
 *   page at a time). An envelope from before proof_run_id (null) drew its range under a lock that
 *   kept others out of it.
 * - It found them all unchanged when the kind's highest change_seq was `to`: they are untouched
 *   while it still is (every change draws a higher one).
 * The records' counts go to `unchanged`; the body is stored already (the earlier envelope refers
 * to it). When no proof holds, nothing is written and the page is stored with its records.
 */
export const storeProvenPage = new NamedStatement<StoreProvenPageParams>(
  'feedsync_store_proven_page_v2',
  `with ${CLAIM_PAGE},
    known_proof as (
      select e.proof_seq_from as seq_from, e.proof_seq_to as seq_to, e.proof_records as records, e.proof_run_id as run_id
      from envelopes e
      where e.content_hash = :contentHash::text and e.request_url = :requestUrl::text and e.proof_derivation = :derivation::text and e.proof_seq_to is not null
      order by e.id desc
      limit 1
    ),
    page_proof as (
      select p.seq_from, p.seq_to, p.records, p.run_id from known_proof p
      where case
        when p.seq_from is not null then (
          select count(*) from records c
          where c.kind = :kind::text and c.change_seq between p.seq_from and p.seq_to and (p.run_id is null or c.last_changed_run_id = p.run_id)
        ) = p.records
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
