import type { PagingConfig } from '../config/schema.js';
import type { PageRequest } from '../http/SourceClient.js';
import { getPath } from '../config/records/dotPath.js';
import { scalarText } from '../config/records/exactJson.js';
import { WindowStuckError, type Advance, type PagePosition, type PageSummary, type Paginator } from './Paginator.js';
import type { RangePaginator } from './RangePaginator.js';

type WindowConfig = NonNullable<PagingConfig['window']>;

/**
 * A capped result window (Etherscan's 10,000 = page × limit) around a page or offset paginator:
 * when the next request would pass the cap, the lower bound `window.param` slides to the last
 * value of `window.field` read, and paging starts again from the first page. The records of that
 * last value are read again by the new window, and skipped as overlap.
 */
export class SlidingWindowPaginator implements Paginator {
  constructor(
    private readonly paginator: RangePaginator,
    private readonly window: WindowConfig,
  ) {}

  start(): PagePosition {
    return this.paginator.start();
  }

  request(base: Readonly<Record<string, string>>, position: PagePosition): PageRequest {
    const { params } = this.paginator.request(base, position);
    return { params: position.windowStart === undefined ? params : { ...params, [this.window.param]: position.windowStart } };
  }

  isOverlap(position: PagePosition, key: string): boolean {
    return position.skipKeys !== undefined && position.skipKeys.includes(key);
  }

  advance(position: PagePosition, page: PageSummary): Advance {
    const advance = this.paginator.advance(position, page);
    if (advance.done) return advance;
    const next = this.trackBoundary(advance.position, page);
    return { done: false, position: this.paginator.reach(next) > this.window.maxResults ? this.slide(next) : next };
  }

  /** The inner style's guess while the window has room for it; where the window slides, the next window's start is the page's last value. */
  guessNext(position: PagePosition): PagePosition | undefined {
    const next = this.paginator.guessNext(position);
    return next && this.paginator.reach(next) <= this.window.maxResults ? next : undefined;
  }

  private slide(next: PagePosition): PagePosition {
    if (next.boundaryValue === undefined) throw new WindowStuckError('the result window is full but its records carry no window field');
    if (next.boundaryValue === next.windowStart) {
      throw new WindowStuckError(`one value of the window field (${next.boundaryValue}) fills the whole result window; lower the page size or narrow the query`);
    }
    return this.paginator.rewind({ ...next, windowStart: next.boundaryValue, skipKeys: next.boundaryKeys ?? [] });
  }

  /**
   * `next` with the last value of the window field read so far, and the keys read with it: the
   * page's last run of that value (records without the field passed over), after the keys of
   * pages before if the whole page holds it. Read from the page's end: only that run is looked at.
   */
  private trackBoundary(next: PagePosition, page: PageSummary): PagePosition {
    const run: string[] = [];
    let value: string | undefined;
    let index = page.items.length - 1;
    for (; index >= 0; index--) {
      const current = scalarText(getPath(page.items[index], this.window.field));
      if (current === undefined) continue;
      if (value === undefined) value = current;
      else if (current !== value) break;
      run.push(page.keys[index]!);
    }
    // No record of the page has the field: the boundary stays where it was (positions are never changed in place, so its keys are not copied).
    if (value === undefined) return { ...next, boundaryKeys: next.boundaryKeys ?? [] };
    run.reverse();
    // The whole page holds the last value: its run began on a page before.
    const before = index < 0 && value === next.boundaryValue ? (next.boundaryKeys ?? []) : [];
    return { ...next, boundaryValue: value, boundaryKeys: [...before, ...run] };
  }
}
