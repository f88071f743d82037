import type { Advance, PagePosition } from '../paging/Paginator.js';
import type { SerialisedRecords } from '../storage/serialiseRecords.js';
import type { PageEnvelope } from '../storage/PageWrites.js';
import type { PageOrder } from './incrementalOrder.js';

/**
 * A fetched page, ready to store. The parsed body is not kept: a page waits here while others
 * are stored, and only what storing needs should outlive the young generation.
 */
export interface PreparedPage {
  envelope: PageEnvelope;
  /** From the upstream's paging totals, when it gives them. */
  expectedTotal: number | undefined;
  advance: Advance;
  /** Serialised now, or (when the page is likely proven stored unchanged) only if storing needs them. */
  records: SerialisedRecords | (() => SerialisedRecords);
  /** How the records derive from the body (see recordsDerivation); null: the page keeps and uses no proof. */
  derivation: string | null;
  /** The page's highest incremental cursor value (null: none, or not incremental). */
  highest: string | null;
  /** How the page's incremental values run (null: not incremental). */
  order: PageOrder | null;
}

/** Fetches the page at a position and prepares it; `page` is its 1-based number in the run. */
export type FetchPreparedPage = (at: PagePosition, page: number) => Promise<PreparedPage>;

/** Pages on their way behind the one being stored: enough that Postgres never waits for one. */
export const PAGES_AHEAD_DEPTH = 2;

/**
 * The pages of a run, in order, each fetched and prepared ahead of need: while one page is stored,
 * the next `depth` are downloading or being prepared. A page's request leaves as soon as the page
 * before it is prepared, since only then is its position known; nothing is requested after the
 * last page.
 */
export class PagesAhead {
  private readonly ahead: Promise<PreparedPage | undefined>[] = [];
  private last: Promise<PreparedPage | undefined> | undefined;
  private lastPage: number;
  private stopped = false;

  constructor(
    private readonly fetchPage: FetchPreparedPage,
    private readonly start: PagePosition,
    pagesBefore: number,
    private readonly depth = PAGES_AHEAD_DEPTH,
  ) {
    this.lastPage = pagesBefore;
  }

  /** The next page; with `depth` more on their way behind it. */
  async next(): Promise<PreparedPage> {
    this.fill(this.depth + 1);
    const prepared = await this.ahead.shift()!;
    if (!prepared) throw new Error(`page ${this.lastPage - this.depth} was asked for after the last page`);
    return prepared;
  }

  /** No page not yet requested will be: the run has ended. */
  stop(): void {
    this.stopped = true;
  }

  private fill(size: number): void {
    while (this.ahead.length < size) {
      const page = ++this.lastPage;
      const before = this.last;
      this.last = before
        ? before.then((previous) => (previous && !previous.advance.done && !this.stopped ? this.fetchPage(previous.advance.position, page) : undefined))
        : this.fetchPage(this.start, page);
      // Awaited in turn by next(); a failure of a page never asked for is dropped with it.
      this.last.catch(() => undefined);
      this.ahead.push(this.last);
    }
  }
}
