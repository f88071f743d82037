import type { Advance, PagePosition, PageSummary } from './Paginator.js';
import { RangePaginator } from './RangePaginator.js';

/** Pages by the index of their first item (`offsetParam`), from 0. */
export class OffsetPaginator extends RangePaginator {
  reach(position: PagePosition): number {
    return position.offset + this.config.limit;
  }

  rewind(position: PagePosition): PagePosition {
    return { ...position, offset: 0 };
  }

  protected styleParams(position: PagePosition): Record<string, string> {
    return { [this.config.offsetParam]: String(position.offset) };
  }

  protected next(counted: PagePosition, page: PageSummary): Advance {
    return { done: false, position: { ...counted, offset: counted.offset + page.items.length } };
  }
}
