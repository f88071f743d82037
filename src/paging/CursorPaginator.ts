import type { Advance, PagePosition, PageSummary } from './Paginator.js';
import { LimitPaginator } from './LimitPaginator.js';
import { getPath } from '../config/records/dotPath.js';
import { scalarText } from '../config/records/exactJson.js';

/** Follows the cursor each page gives at `cursorPath` in `data`, sent back as `cursorParam`; the first page goes without. */
export class CursorPaginator extends LimitPaginator {
  protected styleParams(position: PagePosition): Record<string, string> {
    return position.cursor === undefined ? {} : { [this.config.cursorParam]: position.cursor };
  }

  protected next(counted: PagePosition, page: PageSummary): Advance {
    const cursor = this.config.cursorPath ? scalarText(getPath(page.data, this.config.cursorPath)) : undefined;
    if (cursor === undefined) return { done: true, reason: 'no_cursor', position: counted };
    return { done: false, position: { ...counted, cursor } };
  }
}
