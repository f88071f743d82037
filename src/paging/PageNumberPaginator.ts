import type { Advance, PagePosition } from './Paginator.js';
import { RangePaginator } from './RangePaginator.js';

/** Pages by number (`pageParam`), from `firstPage`. */
export class PageNumberPaginator extends RangePaginator {
  reach(position: PagePosition): number {
    return (position.page - this.config.firstPage + 1) * this.config.limit;
  }

  rewind(position: PagePosition): PagePosition {
    return { ...position, page: this.config.firstPage };
  }

  protected styleParams(position: PagePosition): Record<string, string> {
    return { [this.config.pageParam]: String(position.page) };
  }

  protected next(counted: PagePosition): Advance {
    return { done: false, position: { ...counted, page: counted.page + 1 } };
  }
}
