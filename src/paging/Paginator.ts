import type { PageRequest } from '../http/SourceClient.js';

/**
 * Where a run stands in its query; stored as the run's checkpoint after every page, so a
 * retried run resumes from the next page. One shape for every style, as stored since the first
 * release: each part of paging reads and writes its own fields and carries the others along.
 */
export interface PagePosition {
  /** Next page number (page style), counted within the current window. */
  page: number;
  /** Next offset (offset style), counted within the current window. */
  offset: number;
  /** Next cursor (cursor style). */
  cursor?: string;
  /** Next page's URL as the last response gave it (link_header and next_url styles). */
  nextUrl?: string;
  /** Lower bound sent as `window.param` once the window has slid. */
  windowStart?: string;
  /** Value of `window.field` on the last record read, and the keys read with that value: the overlap the next window re-reads. */
  boundaryValue?: string;
  boundaryKeys?: string[];
  /** Keys to skip because the previous window already stored them. */
  skipKeys?: string[];
  /** Pages read so far and the hash of the last one: what the stop rules remember. */
  pagesFetched: number;
  /** Records read so far, for paging.stopAtTotal (absent in checkpoints from before it). */
  recordsFetched?: number;
  lastPageHash?: string;
}

export type StopReason = 'short_page' | 'empty_page' | 'max_pages' | 'repeated_page' | 'no_cursor' | 'no_next_page' | 'last_page' | 'no_more_pages' | 'total_reached';

/** What the paginator needs to know of a fetched page. */
export interface PageSummary {
  /** The response's data (what the source's `response.dataPath` points to). */
  data: unknown;
  /** The response's `Link` header. */
  link: string | undefined;
  items: readonly unknown[];
  keys: readonly string[];
  contentHash: string;
}

export type Advance = { done: false; position: PagePosition } | { done: true; reason: StopReason; position: PagePosition };

/**
 * How a query is paged: which parameters ask for the page at a position, and where the next page
 * is once one has been read. One class per style, registered by name in `paginatorStyles`.
 */
export interface Paginator {
  /** The position of a run's first page. */
  start(): PagePosition;
  /** The request for the page at `position`: the query's own parameters and the paging ones, or a next-page URL. */
  request(base: Readonly<Record<string, string>>, position: PagePosition): PageRequest;
  /** Whether a record of the page at `position` was stored already, by an earlier result window. */
  isOverlap(position: PagePosition, key: string): boolean;
  /** The position after `page`, read at `position`, or why paging ends there. */
  advance(position: PagePosition, page: PageSummary): Advance;
  /**
   * Where the page after the one at `position` is if that page turns out full and not the last,
   * when that is known before it is read (page and offset styles; not a cursor or a next-page
   * URL, nor where a result window slides); undefined otherwise. Lets the next request leave
   * while this page is still on its way: the guess is used only if it asks for what `advance`
   * then leads to.
   */
  guessNext?(position: PagePosition): PagePosition | undefined;
}

/** A window that cannot slide because one value of its field fills it (e.g. >10,000 txs in one block). */
export class WindowStuckError extends Error {
  override readonly name = 'WindowStuckError';
}
