import type { Advance, PagePosition, PageSummary } from './Paginator.js';
import { LimitPaginator } from './LimitPaginator.js';

/**
 * A style that counts its pages from the start of a result set (page number, offset), so that a
 * capped result window can tell when it is full and start again from its first page. Both
 * counts move with every page whatever the style, as checkpoints always held them: a run
 * resumed after its config switched between the two styles goes on from where it was.
 */
export abstract class RangePaginator extends LimitPaginator {
  /** Results the request at `position` reaches, from the start of the result set (its last index + 1). */
  abstract reach(position: PagePosition): number;

  /** `position` moved back to the first page of the result set. */
  rewind(position: PagePosition): PagePosition {
    return { ...position, page: this.config.firstPage, offset: 0 };
  }

  /** A full page moves the page number by one and the offset by `limit`; none past `maxPages`. */
  guessNext(position: PagePosition): PagePosition | undefined {
    if (position.pagesFetched + 1 >= this.config.maxPages) return undefined;
    return { ...position, page: position.page + 1, offset: position.offset + this.config.limit };
  }

  protected next(counted: PagePosition, page: PageSummary): Advance {
    return { done: false, position: { ...counted, page: counted.page + 1, offset: counted.offset + page.items.length } };
  }
}
