import type { PagingConfig } from '../config/schema.js';
import { getPath } from './jsonPath.js';

/**
 * Where a run stands in its query; stored as the run's checkpoint after every page, so a
 * retried run resumes from the next page.
 */
export interface PagePosition {
  /** Next page number (page style), counted within the current window. */
  page: number;
  /** Next offset (offset style), counted within the current window. */
  offset: number;
  /** Next cursor (cursor style). */
  cursor?: string;
  /** Lower bound sent as `window.param` once the window has slid. */
  windowStart?: string;
  /** Value of `window.field` on the last record read, and the keys read with that value: the overlap the next window re-reads. */
  boundaryValue?: string;
  boundaryKeys?: string[];
  /** Keys to skip because the previous window already stored them. */
  skipKeys?: string[];
  pagesFetched: number;
  lastPageHash?: string;
}

export type StopReason = 'short_page' | 'empty_page' | 'max_pages' | 'repeated_page' | 'no_cursor';

/** What the paginator needs to know of a fetched page. */
export interface PageSummary {
  data: Record<string, unknown>;
  items: ReadonlyArray<Record<string, unknown>>;
  keys: readonly string[];
  contentHash: string;
}

export type Advance = { done: false; position: PagePosition } | { done: true; reason: StopReason; position: PagePosition };

/** A window that cannot slide because one value of its field fills it (e.g. >10,000 txs in one block). */
export class WindowStuckError extends Error {
  override readonly name = 'WindowStuckError';
}

/**
 * Limit-based paging by page number, offset or cursor, with the stop rules of dlt and Airbyte
 * (short page, empty page, maximum pages) plus two guards: a page identical to the previous one
 * (an upstream ignoring the page parameter) stops the run, and a capped result window slides
 * its lower bound past the last value read.
 */
export class Paginator {
  constructor(private readonly config: PagingConfig) {}

  start(initialWindowStart?: string): PagePosition {
    const position: PagePosition = { page: this.config.firstPage, offset: 0, pagesFetched: 0 };
    if (initialWindowStart !== undefined) position.windowStart = initialWindowStart;
    return position;
  }

  /** Query parameters for the page at `position`, on top of the query's own. */
  requestParams(base: Readonly<Record<string, string>>, position: PagePosition): Record<string, string> {
    const params: Record<string, string> = { ...base, [this.config.limitParam]: String(this.config.limit) };
    if (this.config.style === 'page') params[this.config.pageParam] = String(position.page);
    else if (this.config.style === 'offset') params[this.config.offsetParam] = String(position.offset);
    else if (position.cursor !== undefined) params[this.config.cursorParam] = position.cursor;
    const window = this.config.window;
    if (window && position.windowStart !== undefined) params[window.param] = position.windowStart;
    return params;
  }

  /** Records of a page that an earlier window already returned. */
  isOverlap(position: PagePosition, key: string): boolean {
    return position.skipKeys !== undefined && position.skipKeys.includes(key);
  }

  advance(position: PagePosition, page: PageSummary): Advance {
    const next: PagePosition = { ...position, pagesFetched: position.pagesFetched + 1, lastPageHash: page.contentHash };
    const count = page.items.length;
    if (count === 0) return { done: true, reason: 'empty_page', position: next };
    if (position.lastPageHash === page.contentHash) return { done: true, reason: 'repeated_page', position: next };
    if (this.config.window) this.trackBoundary(next, page);
    if (count < this.config.limit) return { done: true, reason: 'short_page', position: next };
    if (next.pagesFetched >= this.config.maxPages) return { done: true, reason: 'max_pages', position: next };

    if (this.config.style === 'cursor') {
      const cursor = this.config.cursorPath ? getPath(page.data, this.config.cursorPath) : undefined;
      if (typeof cursor !== 'string' && typeof cursor !== 'number') return { done: true, reason: 'no_cursor', position: next };
      next.cursor = String(cursor);
      return { done: false, position: next };
    }
    next.page = position.page + 1;
    next.offset = position.offset + count;
    if (this.windowFull(next)) this.slide(next);
    return { done: false, position: next };
  }

  private windowFull(next: PagePosition): boolean {
    const window = this.config.window;
    if (!window) return false;
    const readAfterNext = this.config.style === 'page' ? (next.page - this.config.firstPage + 1) * this.config.limit : next.offset + this.config.limit;
    return readAfterNext > window.maxResults;
  }

  private slide(next: PagePosition): void {
    if (next.boundaryValue === undefined) throw new WindowStuckError('the result window is full but its records carry no window field');
    if (next.boundaryValue === next.windowStart) {
      throw new WindowStuckError(`one value of the window field (${next.boundaryValue}) fills the whole result window; lower the page size or narrow the query`);
    }
    next.windowStart = next.boundaryValue;
    next.skipKeys = next.boundaryKeys ?? [];
    next.page = this.config.firstPage;
    next.offset = 0;
  }

  private trackBoundary(next: PagePosition, page: PageSummary): void {
    const field = this.config.window!.field;
    let value = next.boundaryValue;
    let keys = next.boundaryKeys ? [...next.boundaryKeys] : [];
    for (let index = 0; index < page.items.length; index++) {
      const raw = getPath(page.items[index], field);
      if (typeof raw !== 'string' && typeof raw !== 'number') continue;
      const current = String(raw);
      if (current !== value) {
        value = current;
        keys = [];
      }
      keys.push(page.keys[index]!);
    }
    if (value !== undefined) next.boundaryValue = value;
    next.boundaryKeys = keys;
  }
}
