import type { ResolvedQuery } from '../config/jobs/resolveQuery.js';
import { fetchWithRetries } from '../http/fetchWithRetries.js';
import type { RequestGate } from '../http/RequestGate.js';
import type { FetchedPage, SourceClient } from '../http/SourceClient.js';
import type { UpstreamError } from '../http/UpstreamError.js';
import type { Logger } from '../observability/logger.js';
import type { PagePosition, Paginator } from '../paging/Paginator.js';
import { readTotal } from '../paging/readTotal.js';
import { selectRecords } from '../paging/selectRecords.js';
import { withoutNulChars } from '../storage/records/nulChars.js';
import { highestValue, pageOrder } from './incrementalOrder.js';
import type { PageSource, PreparedPage } from './PagesAhead.js';
import { pageRecords } from './pageRecords.js';
import { pageDerivation } from './recordsDerivation.js';
import { inFetchSpan } from '../observability/tracing/runSpans.js';

export interface PreparePagesOptions {
  query: ResolvedQuery;
  paginator: Paginator;
  /** The query's own request parameters, to which each page adds its paging ones. */
  baseParams: Readonly<Record<string, string>>;
  client: SourceClient;
  gate: RequestGate;
  log: Logger;
  /** Aborts a request waiting to retry. */
  signal: AbortSignal;
  onRetry?: (error: UpstreamError, retry: number, delayMs: number) => void;
  onRateLimitWait?: (waitedMs: number) => void;
  /** Told how many secret occurrences each answer (a page, a retried error) had scrubbed out. */
  onSecretsScrubbed?: (count: number) => void;
  /** Told what a page's body said beside its data (see warningOf). */
  onWarning?: (warning: string) => void;
  /** See recordsDerivation. */
  derivation: string | null;
  /** Whether the run's next page will likely be proven stored unchanged: its records are then serialised only if needed. */
  expectsProven: () => boolean;
}

/**
 * How a run gets its pages ready to store: fetch (with retries, through the rate limit), select
 * the records, advance the paginator, drop the records a previous window already stored, and
 * serialise them (unless the page is likely proven stored unchanged). The parsed body is not kept,
 * but for a page whose records may yet be needed.
 */
export function preparePages(options: PreparePagesOptions): PageSource {
  const { query, paginator, log, baseParams } = options;
  const requestAt = (at: PagePosition) => paginator.request(baseParams, at);
  return {
    fetch: (at, page, dropped) =>
      inFetchSpan(page, (span) =>
        fetchWithRetries(options.client, requestAt(at), query.source.retry, options.gate, {
          // Only guessed requests (from a run's fourth page) pay for a combined signal.
          signal: dropped ? AbortSignal.any([options.signal, dropped]) : options.signal,
          onRetry: (error, retry, delayMs) => {
            log.warn({ err: { kind: error.kind, message: error.message, excerpt: error.excerpt }, retry, delayMs, page }, 'retrying request');
            options.onSecretsScrubbed?.(error.secretsScrubbed);
            options.onRetry?.(error, retry, delayMs);
            span.onRetry(error.kind, retry, delayMs);
          },
          onRateLimitWait: (waitedMs) => {
            options.onRateLimitWait?.(waitedMs);
            span.onRateLimitWait(waitedMs);
          },
        }),
      ),
    prepare: (at, page, fetched) => prepareFetched(options, at, page, fetched),
    guessNext: query.paging.guessNextPage ? (at) => paginator.guessNext?.(at) : () => undefined,
    sameRequest: (a, b) => JSON.stringify(requestAt(a)) === JSON.stringify(requestAt(b)),
  };
}

function prepareFetched(options: PreparePagesOptions, at: PagePosition, page: number, fetched: FetchedPage): PreparedPage {
  const { query, paginator, log } = options;
  const { url, link, raw, bytes, contentHash, latencyMs, envelope } = fetched;
  options.onSecretsScrubbed?.(fetched.secretsScrubbed);
  if (fetched.warning !== undefined) options.onWarning?.(fetched.warning);
  const expectedTotal = readTotal(envelope.data, query.paging.totalPath);
  const selected = selectRecords(envelope.data, query.records, query.subject, query.sourceName, expectedTotal);
  const advance = paginator.advance(at, { data: envelope.data, link, items: selected.items, keys: selected.keys, contentHash });
  let { items, keys } = selected;
  if (at.skipKeys?.length) {
    const fresh = keys.map((key) => !paginator.isOverlap(at, key));
    items = items.filter((_, index) => fresh[index]);
    keys = keys.filter((_, index) => fresh[index]);
  }
  const derivation = pageDerivation(options.derivation, at.skipKeys);
  const serialise = () => pageRecords(query, { keys, items, filtered: selected.filtered, unkeyed: selected.unkeyed }, log.child({ page }));
  const records = derivation !== null && options.expectsProven() ? serialise : serialise();
  return {
    // Text columns cannot hold U+0000 either.
    envelope: { requestUrl: url, raw, status: withoutNulChars(envelope.status), message: withoutNulChars(envelope.message), bytes, contentHash, latencyMs },
    expectedTotal,
    advance,
    records,
    derivation,
    highest: query.incremental ? highestValue(items, query.incremental.field) : null,
    order: query.incremental ? pageOrder(items, query.incremental.field) : null,
  };
}
