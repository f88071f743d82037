import { NamedStatement } from '../namedStatement.js';

export interface StoreBodyAheadParams {
  contentHash: string;
  /** The body as received (see PageEnvelope.raw). */
  body: string;
  bytes: number;
}

/**
 * Stores a page's body in page_bodies before its page is stored, unless a body with its hash is
 * stored already (then the text is not even parsed). The page's own statement then finds it and
 * parses nothing (see INSERT_PAGE_BODY); if it is gone by then (the orphan sweep), or not yet
 * committed, that statement stores it or waits for it, as for any body.
 */
export const storeBodyAhead = new NamedStatement<StoreBodyAheadParams>(
  'feedsync_store_body_ahead_v1',
  `insert into page_bodies (content_hash, body, bytes)
    select :contentHash::text, :body::text::json, :bytes::int
    where not exists (select 1 from page_bodies b where b.content_hash = :contentHash::text)
    on conflict (content_hash) do nothing`,
);
