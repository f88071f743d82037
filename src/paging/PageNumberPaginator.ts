import type { PagePosition } from './Paginator.js';
import { RangePaginator } from './RangePaginator.js';

/** Pages by number (`pageParam`), from `firstPage`. */
export class PageNumberPaginator extends RangePaginator {
  reach(position: PagePosition): number {
    return (position.page - this.config.firstPage + 1) * this.config.limit;
  }

  protected styleParams(position: PagePosition): Record<string, string> {
    return { [this.config.pageParam]: String(position.page) };
  }
}
