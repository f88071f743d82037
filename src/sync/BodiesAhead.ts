import type { Logger } from '../observability/logger.js';
import type { PageEnvelope, PageWrites } from '../storage/pages/PageWrites.js';

/**
 * Stores the bodies of a run's pages ahead of the pages themselves (see PageWrites.storeBodyAhead):
 * each page after the attempt's first, as soon as it is prepared, while the page before it is
 * being stored. Not the first page, which has no page before it to overlap, nor a page likely
 * proven stored unchanged, which stores no body. A body not stored ahead is stored with its page,
 * so a failure here is only logged.
 */
export class BodiesAhead {
  private readonly pending = new Set<Promise<unknown>>();
  /** Set once the run stops storing pages: a request still on its way may yet bring a page, whose body is then not wanted. */
  private closed = false;

  constructor(
    private readonly pages: Pick<PageWrites, 'storeBodyAhead' | 'expectsProven'>,
    private readonly runId: string,
    private readonly firstPage: number,
    private readonly log: Logger,
  ) {}

  /** A page is prepared (preparePages' onPrepared). */
  readonly prepared = (page: number, envelope: PageEnvelope): void => {
    if (this.closed || page === this.firstPage || this.pages.expectsProven(this.runId)) return;
    const stored: Promise<unknown> = this.pages
      .storeBodyAhead(envelope)
      .catch((error: unknown) => this.log.debug({ err: { message: (error as Error).message }, page }, 'page body not stored ahead; its page stores it'))
      .finally(() => this.pending.delete(stored));
    this.pending.add(stored);
  };

  /** Stores no more bodies; resolves once none is on its way: a run leaves no statement of its own behind. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.pending);
  }
}
