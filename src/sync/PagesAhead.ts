import type { Advance, PagePosition } from '../paging/Paginator.js';
import type { FetchedPage } from '../http/SourceClient.js';
import type { SerialisedRecords } from '../storage/records/serialiseRecords.js';
import type { PageEnvelope } from '../storage/pages/PageWrites.js';
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

/** Where a run's pages come from: each fetched at its position, then prepared. */
export interface PageSource {
  /** Fetches the page at `at` (`page`: its number in the run); `dropped` also aborts its waits between retries. */
  fetch(at: PagePosition, page: number, dropped?: AbortSignal): Promise<FetchedPage>;
  /** The page fetched at `at`, ready to store. */
  prepare(at: PagePosition, page: number, fetched: FetchedPage): PreparedPage;
  /** Where the page after the one at `at` is if that one is full and not the last (see Paginator.guessNext); undefined: not known before it is read. */
  guessNext(at: PagePosition): PagePosition | undefined;
  /** Whether the pages at `a` and `b` are asked for by the same request. */
  sameRequest(a: PagePosition, b: PagePosition): boolean;
}

/** Pages on their way behind the one being stored: enough that Postgres never waits for one. */
export const PAGES_AHEAD_DEPTH = 2;

/** A request sent on a guess of where the next page is, before the page before it was read. */
interface GuessedPage {
  page: number;
  at: PagePosition;
  fetched: Promise<FetchedPage>;
  drop: AbortController;
}

/**
 * The pages of a run, in order, each fetched and prepared ahead of need: while one page is stored,
 * the next `depth` are downloading or being prepared. A page's position is known once the page
 * before it is read; where the source can guess it before (page and offset paging) and it is
 * among the pages kept ahead, its request leaves with the one before it (or once it is wanted, if
 * that one is still on its way), and is used only if the guess was right. Guessing starts once
 * two full pages were read and ends at the first wrong guess, so a one- or two-page run makes no
 * request it does not use, and a longer one at most one: past its last page, or the wrong guess.
 * Nothing is requested on a known position after the last page.
 */
export class PagesAhead {
  private readonly ahead: Promise<PreparedPage | undefined>[] = [];
  private last: Promise<PreparedPage | undefined> | undefined;
  private lastPage: number;
  private readonly firstGuessed: number;
  private guess: GuessedPage | undefined;
  /** The last page asked for, until it is answered: the page after it may be guessed at once wanted (see fill). */
  private unanswered: { page: number; at: PagePosition } | undefined;
  /** Set by the first wrong guess: an upstream whose pages do not follow as guessed (more items than asked for, say) is not guessed at again. */
  private guessedWrong = false;
  private stopped = false;

  constructor(
    private readonly source: PageSource,
    private readonly start: PagePosition,
    pagesBefore: number,
    private readonly depth = PAGES_AHEAD_DEPTH,
  ) {
    this.lastPage = pagesBefore;
    this.firstGuessed = pagesBefore + 4;
  }

  /** The next page; with `depth` more on their way behind it. */
  async next(): Promise<PreparedPage> {
    this.fill(this.depth + 1);
    const prepared = await this.ahead.shift()!;
    if (!prepared) throw new Error(`page ${this.lastPage - this.depth} was asked for after the last page`);
    return prepared;
  }

  /** No page not yet requested will be, and a guessed request is dropped: the run has ended. */
  stop(): void {
    this.stopped = true;
    this.dropGuess();
  }

  private fill(size: number): void {
    while (this.ahead.length < size) {
      const page = ++this.lastPage;
      const before = this.last;
      this.last = before
        ? before.then((previous) => (previous && !previous.advance.done && !this.stopped ? this.fetchAndPrepare(previous.advance.position, page) : this.dropGuess()))
        : this.fetchAndPrepare(this.start, page);
      // Awaited in turn by next(); a failure of a page never asked for is dropped with it.
      this.last.catch(() => undefined);
      this.ahead.push(this.last);
      // Wanted only now, while the page before it is on its way: a page that waits on the upstream.
      const unanswered = this.unanswered;
      if (unanswered?.page === page - 1 && !this.guess && this.mayGuess(unanswered.page)) this.guessAfter(unanswered.at, unanswered.page);
    }
  }

  private async fetchAndPrepare(at: PagePosition, page: number): Promise<PreparedPage> {
    const fetched = this.guessed(at, page) ?? this.source.fetch(at, page);
    // Only a page already wanted is guessed at: while stores are the slower side, every wanted page
    // is on its way anyway, and a guess would only add one more beyond, competing for the CPU.
    // A page wanted later, while this one is still on its way, is guessed at then (see fill).
    if (page < this.lastPage && this.mayGuess(page)) this.guessAfter(at, page);
    this.unanswered = { page, at };
    try {
      return this.source.prepare(at, page, await fetched);
    } finally {
      // Answered or failed: a page after a failed one is never wanted, so never guessed at.
      if (this.unanswered?.page === page) this.unanswered = undefined;
    }
  }

  private mayGuess(page: number): boolean {
    return page + 1 >= this.firstGuessed && !this.stopped && !this.guessedWrong;
  }

  /** The guessed request of `page`, if it asked for the page at `at`; a wrong guess is dropped. */
  private guessed(at: PagePosition, page: number): Promise<FetchedPage> | undefined {
    const guess = this.guess;
    this.guess = undefined;
    if (!guess) return undefined;
    if (guess.page === page && this.source.sameRequest(guess.at, at)) return guess.fetched;
    guess.drop.abort();
    this.guessedWrong = true;
    return undefined;
  }

  private guessAfter(at: PagePosition, page: number): void {
    const next = this.source.guessNext(at);
    if (next === undefined) return;
    const drop = new AbortController();
    const fetched = this.source.fetch(next, page + 1, drop.signal);
    // A dropped guess's failure is nobody's; a used one's is handed out in its turn.
    fetched.catch(() => undefined);
    this.guess = { page: page + 1, at: next, fetched, drop };
  }

  private dropGuess(): undefined {
    this.guess?.drop.abort();
    this.guess = undefined;
    return undefined;
  }
}
