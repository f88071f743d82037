import { NamedStatement } from '../namedStatement.js';
import { insertPageBody } from './pageWriteParts.js';

export interface StoreBodyAheadParams {
  contentHash: string;
  /** The body as received (see PageEnvelope.raw). */
  body: Buffer | string;
  bytes: number;
}

/**
 * Stores a page's body in page_bodies before its page is stored. The page's own statement then
 * finds it and parses nothing (see INSERT_PAGE_BODY). If it is not committed yet, that statement
 * waits for it; if the orphan sweep deleted it first, that statement stores it itself, or, having
 * found it just before the delete, fails on the envelope's foreign key and is sent again (see
 * PageWrites.send).
 */
export const storeBodyAhead = new NamedStatement<StoreBodyAheadParams>('feedsync_store_body_ahead_v2', insertPageBody());
