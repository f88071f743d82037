import type { PagingConfig } from '../config/schema.js';
import type { Advance, PagePosition, PageSummary, Paginator } from './Paginator.js';
import { StopRules } from './StopRules.js';

/**
 * What every style shares: pages of `limit` items, sent as `limitParam`, and the stop rules,
 * which each page goes through before the style picks the next one.
 */
export abstract class LimitPaginator implements Paginator {
  private readonly stopRules: StopRules;

  constructor(protected readonly config: PagingConfig) {
    this.stopRules = new StopRules(config.limit, config.maxPages);
  }

  start(): PagePosition {
    // Every field the checkpoint has always held, whatever the style, so older code can read it.
    return { page: this.config.firstPage, offset: 0, pagesFetched: 0 };
  }

  requestParams(base: Readonly<Record<string, string>>, position: PagePosition): Record<string, string> {
    return { ...base, [this.config.limitParam]: String(this.config.limit), ...this.styleParams(position) };
  }

  /** Only a result window re-reads records (see SlidingWindowPaginator). */
  isOverlap(): boolean {
    return false;
  }

  advance(position: PagePosition, page: PageSummary): Advance {
    const counted = this.stopRules.count(position, page);
    if (counted.stop !== undefined) return { done: true, reason: counted.stop, position: counted.position };
    return this.next(counted.position, page);
  }

  /** The style's own parameters for the page at `position`. */
  protected abstract styleParams(position: PagePosition): Record<string, string>;

  /** The position after a page that passed the stop rules (`counted` has the page counted in). */
  protected abstract next(counted: PagePosition, page: PageSummary): Advance;
}
