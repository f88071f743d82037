import type { PagingConfig } from '../config/schema.js';
import type { PageRequest } from '../http/SourceClient.js';
import type { Advance, PagePosition, PageSummary, Paginator } from './Paginator.js';
import { StopRules } from './StopRules.js';

/**
 * What every style shares: pages of `limit` items, sent as `limitParam`, and the stop rules,
 * which each page goes through before the style picks the next one.
 */
export abstract class LimitPaginator implements Paginator {
  private readonly stopRules: StopRules;

  constructor(
    protected readonly config: PagingConfig,
    /** Whether a page shorter than `limit` is the last: not where the upstream picks the page size and links the next. */
    shortPageEnds = true,
  ) {
    this.stopRules = new StopRules(config, shortPageEnds);
  }

  start(): PagePosition {
    // Every field the checkpoint has always held, whatever the style, so older code can read it.
    return { page: this.config.firstPage, offset: 0, pagesFetched: 0 };
  }

  request(base: Readonly<Record<string, string>>, position: PagePosition): PageRequest {
    return { params: { ...base, [this.config.limitParam]: String(this.config.limit), ...this.styleParams(position) } };
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
