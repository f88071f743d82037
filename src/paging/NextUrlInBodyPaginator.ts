import { getPath } from '../config/records/dotPath.js';
import { NextUrlPaginator } from './NextUrlPaginator.js';
import type { PageSummary } from './Paginator.js';

/** `next_url` style: the next page's URL at `nextUrlPath` in `data` (`next`, `links.next`, `paging.next`). */
export class NextUrlInBodyPaginator extends NextUrlPaginator {
  protected nextUrlOf(page: PageSummary): string | undefined {
    const url = this.config.nextUrlPath === undefined ? undefined : getPath(page.data, this.config.nextUrlPath);
    return typeof url === 'string' ? url : undefined;
  }
}
