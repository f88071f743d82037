import { nextLinkOf } from './linkHeader.js';
import { NextUrlPaginator } from './NextUrlPaginator.js';
import type { PageSummary } from './Paginator.js';

/** `link_header` style: the next page's URL in the response's `Link: <…>; rel="next"` header (RFC 8288), as GitHub and many REST APIs send it. */
export class LinkHeaderPaginator extends NextUrlPaginator {
  protected nextUrlOf(page: PageSummary): string | undefined {
    return page.link === undefined ? undefined : nextLinkOf(page.link);
  }
}
