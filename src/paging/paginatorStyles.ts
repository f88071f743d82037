import type { PagingConfig } from '../config/schema.js';
import { CursorPaginator } from './CursorPaginator.js';
import { LinkHeaderPaginator } from './LinkHeaderPaginator.js';
import { NextUrlInBodyPaginator } from './NextUrlInBodyPaginator.js';
import { OffsetPaginator } from './OffsetPaginator.js';
import type { Paginator } from './Paginator.js';
import { PageNumberPaginator } from './PageNumberPaginator.js';
import { RangePaginator } from './RangePaginator.js';
import { SlidingWindowPaginator } from './SlidingWindowPaginator.js';

/**
 * The paginator class of each `paging.style`: a new style is a class and a line here (and its
 * name in the schema's style list, which the type below keeps in step with these lines).
 */
const paginatorStyles: Readonly<Record<PagingConfig['style'], new (config: PagingConfig) => Paginator>> = {
  page: PageNumberPaginator,
  offset: OffsetPaginator,
  cursor: CursorPaginator,
  link_header: LinkHeaderPaginator,
  next_url: NextUrlInBodyPaginator,
};

/** Paging settings that no paginator can be built from. */
export class PagingStyleError extends Error {
  override readonly name = 'PagingStyleError';
}

/** The paginator of `config.style`, inside a sliding result window when `config.window` is set. */
export function createPaginator(config: PagingConfig): Paginator {
  // The schema rejects both problems below in a config file; a config built in code skips it.
  if (!Object.hasOwn(paginatorStyles, config.style)) {
    throw new PagingStyleError(`"${String(config.style)}" is not a paging style (have: ${Object.keys(paginatorStyles).join(', ')})`);
  }
  const paginator = new paginatorStyles[config.style](config);
  if (!config.window) return paginator;
  if (!(paginator instanceof RangePaginator)) throw new PagingStyleError(`a result window slides page or offset paging, not ${config.style} paging`);
  return new SlidingWindowPaginator(paginator, config.window);
}
