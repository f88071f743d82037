import type { ResolvedQuery } from '../config/resolveQuery.js';
import { fetchWithRetries } from '../http/fetchWithRetries.js';
import type { RequestGate } from '../http/RequestGate.js';
import type { SourceClient } from '../http/SourceClient.js';
import { UpstreamError } from '../http/UpstreamError.js';
import { completionNotice } from '../notices/completionNotice.js';
import type { Logger } from '../observability/logger.js';
import { getPath } from '../paging/jsonPath.js';
import { Paginator, type PagePosition, type StopReason } from '../paging/Paginator.js';
import { selectRecords } from '../paging/selectRecords.js';
import { serialiseRecords, type RecordCounts } from '../storage/RecordStore.js';
import { databaseFailureOf } from '../storage/databaseError.js';
import { RunTakenOverError, type RunIdentity, type RunStore } from '../storage/RunStore.js';
import { PagesAhead, type FetchPreparedPage } from './PagesAhead.js';
import { incrementalStart, maxValue, type RunCheckpoint } from './RunCheckpoint.js';

export interface SyncProgress {
  runId: string;
  pages: number;
  records: number;
  /** What the page just stored did to the records table. */
  pageCounts: RecordCounts;
  /** From the upstream's paging totals, when it gives them. */
  expectedTotal: number | undefined;
}

export interface SyncQueryOptions {
  store: RunStore;
  client: SourceClient;
  gate: RequestGate;
  logger: Logger;
  /** Queue a completion notice in the outbox when the run ends (webhook configured). */
  notify: boolean;
  /** Whether a failure now is the run's last attempt; a retried failure posts no notice. */
  isFinalAttempt?: (error: unknown) => boolean;
  /** Whether an interrupted run is picked up again later (queued runs: yes). If not, interruption ends it, with its notice. */
  resumable?: boolean;
  onPage?: (progress: SyncProgress) => void | Promise<void>;
  onRetry?: (error: UpstreamError, retry: number, delayMs: number) => void;
  onRateLimitWait?: (waitedMs: number) => void;
  /** Stop after the page in hand (graceful shutdown); the run stays resumable. */
  signal?: AbortSignal;
}

export interface RunSummary {
  runId: string;
  status: 'succeeded' | 'failed' | 'skipped';
  attempt: number;
  pages: number;
  counts: RecordCounts;
  durationMs: number;
  stopReason?: StopReason;
  error?: Error;
}

/** A run resumed with a different query at its index than it started with. */
export class QueryChangedError extends Error {
  override readonly name = 'QueryChangedError';
}

/** The sync was interrupted by shutdown between pages; nothing is lost, the run resumes later. */
export class SyncInterruptedError extends Error {
  override readonly name = 'SyncInterruptedError';
}

const TOTAL_PATHS = ['total', 'results.total', '@attr.total'];
const MAX_ERROR_CHARS = 2_000;

function expectedTotal(data: Record<string, unknown>): number | undefined {
  for (const path of TOTAL_PATHS) {
    const value = getPath(data, path);
    const total = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : undefined;
    if (total !== undefined) return total;
  }
  return undefined;
}

/**
 * One sync run: claims the run by its key, pages through the query from its checkpoint, and
 * stores each page with the checkpoint in one transaction. The run's final status and its
 * completion notice are written together.
 */
export async function syncQuery(query: ResolvedQuery, identity: RunIdentity, options: SyncQueryOptions): Promise<RunSummary> {
  const { store, logger } = options;
  const run = await store.claim(identity);
  const log = logger.child({ runId: run.id, job: query.job, source: query.sourceName, queryIndex: query.queryIndex, attempt: run.attempt });
  if (run.status === 'succeeded') {
    log.info({ runKey: run.runKey }, 'run already succeeded; not running it again');
    return { runId: run.id, status: 'skipped', attempt: run.attempt, pages: run.pages, counts: run.counts, durationMs: 0 };
  }
  const started = performance.now();
  if (run.pages > 0 && run.queryKey !== query.queryKey) {
    // The config changed under a half-done run: its checkpoint belongs to another query.
    const error = new QueryChangedError(`the query of this run changed in the config after page ${run.pages}; start a new run`);
    await store.finish(run.id, { status: 'failed', errorKind: 'query_changed', error: error.message }, (finished) => (options.notify ? completionNotice(finished) : undefined), run);
    log.error({ err: { kind: 'query_changed', message: error.message } }, 'run failed');
    return { runId: run.id, status: 'failed', attempt: run.attempt, pages: run.pages, counts: run.counts, durationMs: 0, error };
  }
  const paginator = new Paginator(query.paging);
  let checkpoint = run.checkpoint as RunCheckpoint | null;
  if (!checkpoint) {
    const cursor = query.incremental ? await store.readCursor(query.job, query.queryKey) : undefined;
    checkpoint = { position: paginator.start() };
    if (cursor !== undefined && query.incremental) checkpoint.incrementalStart = incrementalStart(cursor, query.incremental.overlap);
  }
  const base: Record<string, string> = { ...query.params };
  if (query.q !== undefined) base.q = query.q;
  if (query.incremental && checkpoint.incrementalStart !== undefined) base[query.incremental.param] = checkpoint.incrementalStart;

  let position: PagePosition = checkpoint.position;
  let pages = run.pages;
  const counts: RecordCounts = { ...run.counts };
  let cursorValue = run.cursorValue;
  let version = run.version;
  /** The run as it stands in storage after the pages stored here: what its notice reports. */
  const current = () => ({ ...run, pages, counts: { ...counts }, cursorValue, version });
  let stopReason: StopReason | undefined;
  if (pages > 0) log.info({ page: pages }, 'resuming after the last stored page');

  // Aborts a prefetch still waiting to retry when the run ends early, or on shutdown. (A listener,
  // not AbortSignal.any: that costs more than the rest of a one-page run's bookkeeping.)
  const ended = new AbortController();
  const signal = ended.signal;
  const onShutdown = (): void => ended.abort();
  options.signal?.addEventListener('abort', onShutdown, { once: true });
  /** Fetches the page at `at` and makes it ready to store: records selected, overlap dropped, serialised. */
  const fetchAt: FetchPreparedPage = async (at, page) => {
    const fetched = await fetchWithRetries(options.client, paginator.requestParams(base, at), query.source.retry, options.gate, {
      signal,
      onRetry: (error, retry, delayMs) => {
        log.warn({ err: { kind: error.kind, message: error.message, excerpt: error.excerpt }, retry, delayMs, page }, 'retrying request');
        options.onRetry?.(error, retry, delayMs);
      },
      onRateLimitWait: options.onRateLimitWait,
    });
    const selected = selectRecords(fetched.envelope.data, query.records, query.q, query.sourceName);
    const advance = paginator.advance(at, { data: fetched.envelope.data, items: selected.items, keys: selected.keys, contentHash: fetched.contentHash });
    let { items, keys } = selected;
    if (at.skipKeys?.length) {
      const fresh = keys.map((key) => !paginator.isOverlap(at, key));
      items = items.filter((_, index) => fresh[index]);
      keys = keys.filter((_, index) => fresh[index]);
    }
    const highest = query.incremental ? highestValue(items, query.incremental.field) : null;
    const { url, raw, bytes, contentHash, latencyMs, envelope } = fetched;
    return {
      envelope: { requestUrl: url, raw, status: envelope.status, message: envelope.message, bytes, contentHash },
      latencyMs,
      expectedTotal: expectedTotal(envelope.data),
      advance,
      records: serialiseRecords(keys, items),
      highest,
    };
  };
  const pagesAhead = new PagesAhead(fetchAt, position, pages);

  try {
    while (stopReason === undefined) {
      if (options.signal?.aborted) throw new SyncInterruptedError(`interrupted after page ${pages}`);
      // Pages ahead download and are prepared while this one is stored, so the upstream, this
      // process and Postgres work at once.
      const prepared = await pagesAhead.next();
      const { envelope, advance, records, highest } = prepared;
      if (highest !== null) cursorValue = maxValue(cursorValue, highest);
      const stored = await store.storePage(
        run.id,
        pages,
        {
          ...envelope,
          kind: query.records.kind,
          records,
          checkpoint: { ...checkpoint, position: advance.position } satisfies RunCheckpoint,
          cursorValue,
        },
        query.sourceName,
      );
      const pageCounts = stored.counts;
      version = stored.version;
      pages += 1;
      counts.new += pageCounts.new;
      counts.updated += pageCounts.updated;
      counts.unchanged += pageCounts.unchanged;
      position = advance.position;
      if (advance.done) stopReason = advance.reason;
      log.debug({ page: pages, records: records.keys.length, ...pageCounts, bytes: envelope.bytes, latencyMs: Math.round(prepared.latencyMs) }, 'page stored');
      await options.onPage?.({ runId: run.id, pages, pageCounts, records: counts.new + counts.updated + counts.unchanged, expectedTotal: prepared.expectedTotal });
    }
  } catch (error) {
    // Another process owns the run now; it records the outcome, not us.
    if (error instanceof RunTakenOverError) throw error;
    const failure =
      options.signal?.aborted && !(error instanceof SyncInterruptedError)
        ? new SyncInterruptedError(`interrupted after page ${pages}`, { cause: error })
        : error instanceof Error
          ? error
          : new Error(String(error));
    const final = failure instanceof SyncInterruptedError ? options.resumable === false : (options.isFinalAttempt?.(failure) ?? true);
    const database = databaseFailureOf(failure);
    const kind = failure instanceof UpstreamError ? failure.kind : database ? `database_${database.code}` : failure.name;
    // Drizzle's own message quotes every parameter (a whole page): keep the database's reason only.
    const message = (database ? `database: ${database.message}` : failure.message).slice(0, MAX_ERROR_CHARS);
    await store.finish(run.id, { status: 'failed', errorKind: kind, error: message }, (finished) => (final && options.notify ? completionNotice(finished) : undefined), current());
    log.error({ err: { kind, message }, pages, ...counts, final }, 'run failed');
    return { runId: run.id, status: 'failed', attempt: run.attempt, pages, counts, durationMs: performance.now() - started, error: failure };
  } finally {
    options.signal?.removeEventListener('abort', onShutdown);
    pagesAhead.stop();
    // A run that ended early may have pages ahead waiting to retry; after the last page none are left.
    if (stopReason === undefined) ended.abort();
  }
  const cursor = query.incremental && cursorValue !== null ? { field: query.incremental.field, value: cursorValue } : undefined;
  await store.finish(run.id, { status: 'succeeded', stopReason, cursor }, (finished) => (options.notify ? completionNotice(finished) : undefined), current());
  const durationMs = performance.now() - started;
  log.info({ pages, ...counts, stopReason, durationMs: Math.round(durationMs) }, 'run succeeded');
  return { runId: run.id, status: 'succeeded', attempt: run.attempt, pages, counts, durationMs, stopReason };
}

/** The highest value of `field` among the items; null when none has one. */
function highestValue(items: readonly Record<string, unknown>[], field: string): string | null {
  let highest: string | null = null;
  for (const item of items) {
    const value = getPath(item, field);
    if (typeof value === 'string' || typeof value === 'number') highest = maxValue(highest, String(value));
  }
  return highest;
}
