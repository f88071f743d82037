import type { PagePosition } from './Paginator.js';
import { LimitPaginator } from './LimitPaginator.js';

/**
 * A style that counts its pages from the start of a result set (page number, offset), so that a
 * capped result window can tell when it is full and start again from its first page.
 */
export abstract class RangePaginator extends LimitPaginator {
  /** Results the request at `position` reaches, from the start of the result set (its last index + 1). */
  abstract reach(position: PagePosition): number;

  /** `position` moved back to the first page of the result set. */
  abstract rewind(position: PagePosition): PagePosition;
}
