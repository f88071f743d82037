import { getPath } from '../config/records/dotPath.js';
import { numberOf } from '../config/records/exactJson.js';
import { numberOrDigits, readTotal } from './readTotal.js';
import type { PagingConfig } from '../config/schema.js';
import type { PagePosition, PageSummary, StopReason } from './Paginator.js';

/** A page counted into the position, and why paging ends there (undefined: it goes on). */
export interface CountedPage {
  position: PagePosition;
  stop: StopReason | undefined;
}

/**
 * The stop rules every paging style goes through: those of dlt and Airbyte (empty page, page
 * shorter than the limit, maximum pages, the totals the upstream gives) plus a guard against an
 * upstream that ignores the page parameter, whose page is then identical to the one before.
 */
export class StopRules {
  constructor(
    /** `limit` (a shorter page is the last), `maxPages`, and where `data` gives its page count or more-pages flag. */
    private readonly config: Pick<PagingConfig, 'limit' | 'maxPages' | 'totalPagesPath' | 'hasMorePath' | 'stopAtTotal' | 'totalPath' | 'window'>,
    private readonly shortPageEnds = true,
  ) {}

  /** Counts `page`, read at `position`, and says whether paging ends there. */
  count(position: PagePosition, page: PageSummary): CountedPage {
    const next: PagePosition = { ...position, pagesFetched: position.pagesFetched + 1, lastPageHash: page.contentHash };
    if (this.config.stopAtTotal) next.recordsFetched = (position.recordsFetched ?? 0) + page.items.length;
    return { position: next, stop: this.stopReason(position, page, next) };
  }

  /**
   * The page count a stated total gives at this page size, when the upstream states no page count
   * (Last.fm's searches: `opensearch:totalResults` only); infinite where it cannot tell: no total
   * at a `totalPath` the query names, a page size the upstream picks, or a sliding window, whose
   * totals change as it slides.
   */
  private pagesOfTotal(data: unknown): number {
    if (this.config.totalPath === undefined || this.config.totalPagesPath !== undefined || !this.shortPageEnds || this.config.window) return Number.POSITIVE_INFINITY;
    const total = readTotal(data, this.config.totalPath);
    return total === undefined ? Number.POSITIVE_INFINITY : Math.ceil(total / this.config.limit);
  }

  private stopReason(position: PagePosition, page: PageSummary, next: PagePosition): StopReason | undefined {
    const { pagesFetched } = next;
    if (page.items.length === 0) return 'empty_page';
    if (position.lastPageHash === page.contentHash) return 'repeated_page';
    if (this.shortPageEnds && page.items.length < this.config.limit) return 'short_page';
    if (this.config.hasMorePath !== undefined && isFalse(getPath(page.data, this.config.hasMorePath))) return 'no_more_pages';
    if (this.config.totalPagesPath !== undefined && pagesFetched >= countOf(getPath(page.data, this.config.totalPagesPath))) return 'last_page';
    if (this.config.stopAtTotal && next.recordsFetched! >= (readTotal(page.data, this.config.totalPath) ?? Number.POSITIVE_INFINITY)) return 'total_reached';
    if (pagesFetched >= this.config.maxPages) return 'max_pages';
    if (pagesFetched >= this.pagesOfTotal(page.data)) return 'last_page';
    return undefined;
  }
}

/** `false`, or the text or number an upstream writes it as; a flag that is absent says nothing. */
function isFalse(value: unknown): boolean {
  return value === false || numberOf(value) === 0 || value === 'false' || value === '0';
}

/** A page count given as a number or as digits (Last.fm sends "7"); anything else never stops paging. */
function countOf(value: unknown): number {
  const count = numberOrDigits(value);
  return count !== undefined && Number.isInteger(count) ? count : Number.POSITIVE_INFINITY;
}
