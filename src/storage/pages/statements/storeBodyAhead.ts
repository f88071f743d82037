import { NamedStatement } from '../../database/NamedStatement.js';
import { insertPageBody } from './pageWriteParts.js';

export interface StoreBodyAheadParams {
  contentHash: string;
  /** The body as received (see PageEnvelope.raw). */
  body: Buffer | string;
  bytes: number;
}

/**
 * Stores a page's body in page_bodies before its page is stored. The page's own statement then
 * finds it and parses nothing (see INSERT_PAGE_BODY), and once it is committed, the page is sent
 * without it. If it is not committed yet, the page's statement, sent with the body, waits for it.
 * If the orphan sweep deleted it first, the page's statement stores it itself; sent without it, or
 * having found it just before the delete, that statement fails on the envelope's foreign key and
 * is sent again with the body (see PageWrites.send).
 */
export const storeBodyAhead = new NamedStatement<StoreBodyAheadParams>('feedsync_store_body_ahead_v2', insertPageBody());
