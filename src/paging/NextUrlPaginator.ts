import type { PagingConfig } from '../config/schema.js';
import type { PageRequest } from '../http/SourceClient.js';
import { LimitPaginator } from './LimitPaginator.js';
import type { Advance, PagePosition, PageSummary } from './Paginator.js';

/**
 * Follows the URL each response gives for its next page: the first request carries the query's
 * parameters and `limit`, the next ones are the given URL as is (the upstream puts the query in
 * it). The upstream picks the page size, so a short page does not end paging; a page without a
 * next URL does.
 */
export abstract class NextUrlPaginator extends LimitPaginator {
  constructor(config: PagingConfig) {
    super(config, false);
  }

  override request(base: Readonly<Record<string, string>>, position: PagePosition): PageRequest {
    return position.nextUrl === undefined ? super.request(base, position) : { params: {}, nextUrl: position.nextUrl };
  }

  protected styleParams(): Record<string, string> {
    return {};
  }

  protected next(counted: PagePosition, page: PageSummary): Advance {
    const nextUrl = this.nextUrlOf(page);
    if (nextUrl === undefined || nextUrl === '') return { done: true, reason: 'no_next_page', position: counted };
    return { done: false, position: { ...counted, nextUrl } };
  }

  /** Where this style finds the next page's URL in a response; undefined when it has none. */
  protected abstract nextUrlOf(page: PageSummary): string | undefined;
}
