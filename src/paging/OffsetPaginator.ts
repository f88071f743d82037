import type { PagePosition } from './Paginator.js';
import { RangePaginator } from './RangePaginator.js';

/** Pages by the index of their first item (`offsetParam`), from 0. */
export class OffsetPaginator extends RangePaginator {
  reach(position: PagePosition): number {
    return position.offset + this.config.limit;
  }

  protected styleParams(position: PagePosition): Record<string, string> {
    return { [this.config.offsetParam]: String(position.offset) };
  }
}
