import type { PagePosition, PageSummary, StopReason } from './Paginator.js';

/** A page counted into the position, and why paging ends there (undefined: it goes on). */
export interface CountedPage {
  position: PagePosition;
  stop: StopReason | undefined;
}

/**
 * The stop rules every paging style goes through: those of dlt and Airbyte (empty page, page
 * shorter than the limit, maximum pages) plus a guard against an upstream that ignores the page
 * parameter, whose page is then identical to the one before.
 */
export class StopRules {
  constructor(
    /** Items a full page holds: a shorter page is the last. */
    private readonly limit: number,
    /** Pages a run reads at most. */
    private readonly maxPages: number,
  ) {}

  /** Counts `page`, read at `position`, and says whether paging ends there. */
  count(position: PagePosition, page: PageSummary): CountedPage {
    const next: PagePosition = { ...position, pagesFetched: position.pagesFetched + 1, lastPageHash: page.contentHash };
    return { position: next, stop: this.stopReason(position, page, next.pagesFetched) };
  }

  private stopReason(position: PagePosition, page: PageSummary, pagesFetched: number): StopReason | undefined {
    if (page.items.length === 0) return 'empty_page';
    if (position.lastPageHash === page.contentHash) return 'repeated_page';
    if (page.items.length < this.limit) return 'short_page';
    if (pagesFetched >= this.maxPages) return 'max_pages';
    return undefined;
  }
}
