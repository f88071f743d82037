import type { ResolvedQuery } from '../config/jobs/resolveQuery.js';
import type { RequestGate } from '../http/RequestGate.js';
import type { SourceClient } from '../http/SourceClient.js';
import type { UpstreamError } from '../http/UpstreamError.js';
import type { Logger } from '../observability/logger.js';
import { WindowStuckError, type Paginator } from '../paging/Paginator.js';
import { createPaginator } from '../paging/paginatorStyles.js';
import type { RecordCounts } from '../storage/records/recordCounts.js';
import { RunTakenOverError } from '../storage/pages/PageWrites.js';
import { pageWriteMode, refreshScopeOf } from '../storage/pages/writeModes.js';
import type { RunStore } from '../storage/runStore.js';
import { waitOutStorageOutage } from '../storage/database/storageOutage.js';
import { isEnded, type NoticeToQueue, type RunIdentity, type RunOutcome, type RunState } from '../storage/runs/runState.js';
import { PagesAhead } from './PagesAhead.js';
import { preparePages } from './preparePages.js';
import { recordsDerivation } from './recordsDerivation.js';
import { incrementalStart, type RunCheckpoint } from './runCheckpoint.js';
import { CrashedTooOftenError, failureOf, isFinalFailure, QueryChangedError, recordOf, SyncInterruptedError, type RunAttempts } from './runFailures.js';
import { RunProgress } from './RunProgress.js';
import { inRunSpan, inStoreSpan } from '../observability/tracing/runSpans.js';
import { ScrubbedSecrets } from './ScrubbedSecrets.js';
import { UpstreamWarnings } from './UpstreamWarnings.js';
import { shortfallOf, type PagingEnd, type RunStopReason, type Shortfall } from './runShortfall.js';

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
  /** Makes the run's completion notice, queued in the outbox with its final status; absent: no webhook, no notice. */
  noticeFor?: (run: RunState) => NoticeToQueue;
  /** The queue's attempts of this run (default: this is the only one); a failure with attempts left posts no notice. */
  attempts?: RunAttempts;
  /** Whether an interrupted run is picked up again later (queued runs: yes). If not, interruption ends it, with its notice. */
  resumable?: boolean;
  onPage?: (progress: SyncProgress) => void | Promise<void>;
  onRetry?: (error: UpstreamError, retry: number, delayMs: number) => void;
  onRateLimitWait?: (waitedMs: number) => void;
  /** Stop after the page in hand (graceful shutdown); the run stays resumable. */
  signal?: AbortSignal;
  /** How long a database outage is waited out, at each claim, page store or finish, before it fails the attempt (default 0). */
  databaseOutageMs?: number;
  /** Told of each wait for a database outage to pass, before it starts. */
  onDatabaseWait?: (waitMs: number) => void;
  /** Crashes of the run's holders (counted by its claims) past which it fails for good instead of going on; absent: no limit. */
  maxCrashes?: number;
}

export interface RunSummary {
  runId: string;
  /**
   * `interrupted`: stopped by shutdown after a stored page, to be resumed from its checkpoint.
   * `partial`: ended with part of the data (`shortfall` says why).
   */
  status: 'succeeded' | 'partial' | 'failed' | 'interrupted' | 'skipped';
  attempt: number;
  pages: number;
  counts: RecordCounts;
  durationMs: number;
  stopReason?: RunStopReason;
  shortfall?: Shortfall;
  error?: Error;
  /** For a failure: whether it ended the run for good (its notice queued), or the run is to be tried again. */
  final?: boolean;
}

/** A run as this attempt at it goes: its query, its state as claimed, its log and options. */
interface RunContext {
  query: ResolvedQuery;
  run: RunState;
  log: Logger;
  options: SyncQueryOptions;
  started: number;
  secrets: ScrubbedSecrets;
  warnings: UpstreamWarnings;
}

/**
 * One sync run: claims the run by its key, pages through the query from its checkpoint, and
 * stores each page with the checkpoint in one transaction. The run's final status and its
 * completion notice are written together.
 */
export function syncQuery(query: ResolvedQuery, identity: RunIdentity, options: SyncQueryOptions): Promise<RunSummary> {
  const subject = { job: query.job, source: query.sourceName, runKey: identity.runKey, queryIndex: query.queryIndex };
  return inRunSpan(subject, (traceId) => attemptRun(query, traceId === undefined ? identity : { ...identity, traceId }, options));
}

async function attemptRun(query: ResolvedQuery, identity: RunIdentity, options: SyncQueryOptions): Promise<RunSummary> {
  const run = await outlasting(options, options.logger, () => options.store.claims.claim(identity));
  const traced = identity.traceId === undefined ? {} : { traceId: identity.traceId };
  const log = options.logger.child({ runId: run.id, job: query.job, source: query.sourceName, queryIndex: query.queryIndex, attempt: run.attempt, ...traced });
  const context: RunContext = { query, run, log, options, started: performance.now(), secrets: new ScrubbedSecrets(), warnings: new UpstreamWarnings(log) };
  if (isEnded(run.status)) {
    log.info({ runKey: run.runKey, status: run.status }, 'run already ended; not running it again');
    // Its process may have died between its finish and its count: a job taken up again counts it.
    if (run.tickId) await options.store.ticks.countEnded([run.tickId]);
    return { runId: run.id, status: 'skipped', attempt: run.attempt, pages: run.pages, counts: run.counts, durationMs: 0 };
  }
  const progress = new RunProgress(run);
  if (options.maxCrashes !== undefined && run.crashes > options.maxCrashes) return fail(context, progress, new CrashedTooOftenError(options.maxCrashes, run.pages));
  if (run.pages > 0 && run.queryKey !== query.queryKey) {
    // The config changed under a half-done run: its checkpoint belongs to another query.
    return fail(context, progress, new QueryChangedError(`the query of this run changed in the config after page ${run.pages}; start a new run`));
  }
  let end: PagingEnd;
  try {
    end = await storePages(context, progress);
  } catch (error) {
    // Another process owns the run now; it records the outcome, not us.
    if (error instanceof RunTakenOverError) throw error;
    context.secrets.addFailure(error);
    return fail(context, progress, failureOf(error, options.signal?.aborted ?? false, progress.pages));
  } finally {
    options.store.pages.forget(run.id);
    context.secrets.warn(log);
  }
  return complete(context, progress, end);
}

/** Where the run starts: its checkpoint, or the first page (from the incremental cursor, if any). */
async function startingPoint(context: RunContext, paginator: Paginator): Promise<RunCheckpoint> {
  const { query, run, options } = context;
  if (run.checkpoint) return run.checkpoint as RunCheckpoint;
  const checkpoint: RunCheckpoint = { position: paginator.start() };
  const cursor = query.incremental ? await outlasting(options, context.log, () => options.store.cursors.read(query.job, query.queryKey)) : undefined;
  if (cursor !== undefined && query.incremental) checkpoint.incrementalStart = incrementalStart(cursor, query.incremental.overlap);
  return checkpoint;
}

/** The query's own request parameters: its params, `q`, and the incremental lower bound. */
function baseParams(query: ResolvedQuery, checkpoint: RunCheckpoint): Record<string, string> {
  const params: Record<string, string> = { ...query.params };
  if (query.q !== undefined) params[query.qParam] = query.q;
  if (query.incremental && checkpoint.incrementalStart !== undefined) params[query.incremental.param] = checkpoint.incrementalStart;
  return params;
}

/**
 * Stores page after page until the paginator stops, or a result window cannot slide (the pages
 * stored so far are kept: the run ends partial); returns why it stopped.
 */
async function storePages(context: RunContext, progress: RunProgress): Promise<PagingEnd> {
  const { query, run, log, options } = context;
  const paginator = createPaginator(query.paging);
  const checkpoint = await startingPoint(context, paginator);
  if (checkpoint.end) {
    log.info({ page: run.pages, stopReason: checkpoint.end.stopReason }, 'resuming after the last page: paging had ended there');
    return { stopReason: checkpoint.end.stopReason, expectedTotal: checkpoint.end.expectedTotal };
  }
  if (run.pages > 0) log.info({ page: run.pages }, 'resuming after the last stored page');
  // Aborts a prefetch still waiting to retry when the run ends early, or on shutdown. (A listener,
  // not AbortSignal.any: that costs more than the rest of a one-page run's bookkeeping.)
  const ended = new AbortController();
  const onShutdown = (): void => ended.abort();
  options.signal?.addEventListener('abort', onShutdown, { once: true });
  const prepare = preparePages({
    ...options,
    query,
    paginator,
    baseParams: baseParams(query, checkpoint),
    log,
    signal: ended.signal,
    derivation: recordsDerivation(query),
    expectsProven: () => options.store.pages.expectsProven(run.id),
    onSecretsScrubbed: (count) => context.secrets.add(count),
    onWarning: (warning) => context.warnings.add(warning),
  });
  // Pages ahead download and are prepared while this one is stored, so the upstream, this
  // process and Postgres work at once.
  const pagesAhead = new PagesAhead(prepare, checkpoint.position, progress.pages);
  const writeMode = pageWriteMode(query.mode, query.job, query.queryKey);
  let end: PagingEnd | undefined;
  try {
    while (end === undefined) {
      if (options.signal?.aborted) throw new SyncInterruptedError(`interrupted after page ${progress.pages}`);
      const prepared = await pagesAhead.next().catch((error: unknown) => {
        if (error instanceof WindowStuckError) return error;
        throw error;
      });
      if (prepared instanceof WindowStuckError) return { stopReason: 'window_stuck', stuck: prepared.message, expectedTotal: undefined };
      const { envelope, advance, records, derivation } = prepared;
      // The same body as the page before (an upstream that ignores the page parameter): nothing new to store, and its records read once.
      if (advance.done && advance.reason === 'repeated_page') return { stopReason: advance.reason, expectedTotal: prepared.expectedTotal };
      const cursorValue = progress.cursorWith(prepared.highest);
      const ascending = progress.ascendingWith(prepared.order);
      const nextCheckpoint: RunCheckpoint = {
        ...checkpoint,
        position: advance.position,
        ...(ascending ? {} : { outOfOrder: true }),
        ...(advance.done ? { end: { stopReason: advance.reason, expectedTotal: prepared.expectedTotal } } : {}),
      };
      const page = { ...envelope, kind: query.records.kind, records, derivation, checkpoint: nextCheckpoint, cursorValue, writeMode };
      const stored = await inStoreSpan(progress.pages + 1, () => outlasting(options, log, () => options.store.pages.storePage(run.id, progress.pages, page, query.sourceName)));
      progress.pageStored(stored, cursorValue, ascending);
      if (advance.done) end = { stopReason: advance.reason, expectedTotal: prepared.expectedTotal };
      log.debug({ page: progress.pages, ...stored.counts, proven: stored.records === undefined, bytes: envelope.bytes, latencyMs: Math.round(envelope.latencyMs) }, 'page stored');
      await options.onPage?.({ runId: run.id, pages: progress.pages, pageCounts: stored.counts, records: progress.records, expectedTotal: prepared.expectedTotal });
    }
    return end;
  } finally {
    options.signal?.removeEventListener('abort', onShutdown);
    pagesAhead.stop();
    // A run that ended early may have pages ahead waiting to retry; after the last page none are left.
    if (end === undefined) ended.abort();
  }
}

/**
 * Records the run as failed, with its notice, when the failure is final; as retrying when an
 * attempt is left; or, stopped by a shutdown that leaves it to resume, as interrupted.
 */
async function fail(context: RunContext, progress: RunProgress, failure: Error): Promise<RunSummary> {
  const { log, options } = context;
  const final = isFinalFailure(failure, options.attempts ?? { made: 0, allowed: 1 }, options.resumable ?? true);
  if (failure instanceof SyncInterruptedError && !final) {
    await finish(context, progress, { status: 'interrupted' }, false);
    log.info({ pages: progress.pages }, 'run interrupted by shutdown; it resumes from its checkpoint');
    return { ...summaryOf(context, progress), status: 'interrupted', error: failure, final };
  }
  const { kind, message } = recordOf(failure);
  await finish(context, progress, { status: final ? 'failed' : 'retrying', errorKind: kind, error: message }, final);
  const fields = { err: { kind, message }, pages: progress.pages, ...progress.counts, final };
  if (final) log.error(fields, 'run failed');
  else log.warn(fields, 'run attempt failed; it will be retried from its checkpoint');
  return { ...summaryOf(context, progress), status: 'failed', error: failure, final };
}

/**
 * Records a run whose paging ended as succeeded, or as partial when it did not get everything.
 * A partial run's cursor moves only if it stored its values in ascending order (all up to the
 * highest is then stored); newest first, it stays, so the next run reads the missing part again.
 */
async function complete(context: RunContext, progress: RunProgress, end: PagingEnd): Promise<RunSummary> {
  const { query, log } = context;
  const { stopReason } = end;
  const shortfall = shortfallOf(end, progress.read, query.paging);
  const moves = shortfall === undefined || progress.ascending;
  const cursor = query.incremental && progress.cursorValue !== null && moves ? { field: query.incremental.field, value: progress.cursorValue } : undefined;
  const status = shortfall === undefined ? 'succeeded' : 'partial';
  // Only a run that got everything may say what the upstream no longer has.
  if (status === 'succeeded' && query.mode === 'full_refresh') await sweepDeleted(context, progress);
  await finish(context, progress, { status, stopReason, cursor, errorKind: shortfall?.kind, error: shortfall?.message }, true);
  const summary: RunSummary = { ...summaryOf(context, progress), status, stopReason, shortfall };
  const fields = { pages: summary.pages, ...summary.counts, stopReason, durationMs: Math.round(summary.durationMs) };
  if (shortfall) log.warn({ ...fields, partial: shortfall, cursorMoved: cursor !== undefined }, 'run ended partial: it did not get everything');
  else log.info(fields, 'run succeeded');
  return summary;
}

/** full_refresh: marks deleted the records earlier runs of the query returned and this complete one did not. */
async function sweepDeleted(context: RunContext, progress: RunProgress): Promise<void> {
  const { options, log, run, query } = context;
  const { deleted, recordsDeleted, version } = await outlasting(options, log, () => options.store.deletions.sweep(run.id, refreshScopeOf(query.job, query.queryKey)));
  progress.swept(recordsDeleted, version);
  if (deleted > 0) log.info({ deleted }, 'records no longer returned marked deleted (full_refresh)');
}

/** Writes the run's final status, with its notice when `announce` and a webhook is configured. */
async function finish(context: RunContext, progress: RunProgress, outcome: RunOutcome, announce: boolean): Promise<void> {
  const { options, log, run } = context;
  const { noticeFor } = options;
  // Before the finish, which reads the run back for its notice.
  await outlasting(options, log, () => context.warnings.keep(options.store, run.id));
  await outlasting(options, log, () => options.store.finishes.finish(run.id, outcome, (finished) => (announce ? noticeFor?.(finished) : undefined), progress.state()));
}

function summaryOf(context: RunContext, progress: RunProgress): Omit<RunSummary, 'status'> {
  const { run, started } = context;
  return { runId: run.id, attempt: run.attempt, pages: progress.pages, counts: { ...progress.counts }, durationMs: performance.now() - started };
}

/**
 * A storage step that waits out a database outage (up to `databaseOutageMs`) rather than fail
 * the attempt. A page whose write committed just before the connection dropped is refused on the
 * retry as taken over; the run is then resumed from its checkpoint (by the queue, or by runJobNow
 * for an in-process run).
 */
function outlasting<T>(options: SyncQueryOptions, log: Logger, step: () => Promise<T>): Promise<T> {
  return waitOutStorageOutage(step, {
    maxWaitMs: options.databaseOutageMs ?? 0,
    signal: options.signal,
    onWait: (error, waitMs) => {
      log.warn({ err: { message: (error as Error).message }, waitMs }, 'database out of reach; waiting it out');
      options.onDatabaseWait?.(waitMs);
    },
  });
}
