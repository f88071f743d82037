import { trace, type Span } from '@opentelemetry/api';
import { failSpan, inSpan, recordedTraceId } from './spans.js';

/** What a page's store did to the records table (see RecordCounts). */
interface RecordCounts {
  new: number;
  updated: number;
  unchanged: number;
}

/**
 * A job tick's opening (and, run in this process, its runs) in a span of its own: the root of
 * the tick's trace, which its runs continue across the queue and its notices from the outbox
 * (`job_ticks.traceparent`).
 */
export function inTickSpan<T>(job: string, trigger: string, work: () => Promise<T>): Promise<T> {
  return inSpan(`tick ${job}`, { attributes: { 'feedsync.job': job, 'feedsync.tick.trigger': trigger } }, () => work());
}

/** Tells the tick's span (the active one) which tick it opened, and how many runs. */
export function describeTick(tickId: string, runs: number): void {
  trace.getActiveSpan()?.setAttributes({ 'feedsync.tick.id': tickId, 'feedsync.tick.runs': runs });
}

/** Whose run a run's span is. */
export interface RunSpanSubject {
  job: string;
  source: string;
  runKey: string;
  queryIndex: number;
}

/** What a run's span records of how its attempt went (see RunSummary). */
interface RunSpanSummary {
  runId: string;
  status: string;
  attempt: number;
  pages: number;
  counts: RecordCounts;
  error?: Error;
}

/**
 * A run's attempt in a span of its own (the child of the queue's `process` span, or of whatever
 * is active), its trace id (undefined when not recorded) handed to the attempt to keep on the
 * run's row and in its log lines.
 * Attribute names: `feedsync.*` for what is feedsync's, OpenTelemetry's semantic conventions for
 * the rest.
 */
export function inRunSpan<Summary extends RunSpanSummary>(run: RunSpanSubject, attempt: (traceId: string | undefined) => Promise<Summary>): Promise<Summary> {
  const attributes = { 'feedsync.job': run.job, 'feedsync.source': run.source, 'feedsync.run.key': run.runKey, 'feedsync.query.index': run.queryIndex };
  return inSpan(`run ${run.job}`, { attributes }, async (span) => {
    const summary = await attempt(recordedTraceId(span));
    span.setAttributes({ 'feedsync.run.id': summary.runId, 'feedsync.run.status': summary.status, 'feedsync.run.attempt': summary.attempt, 'feedsync.run.pages': summary.pages, ...countAttributes(summary.counts) });
    if (summary.status === 'failed' && summary.error) failSpan(span, summary.error);
    return summary;
  });
}

function countAttributes(counts: RecordCounts): Record<string, number> {
  return { 'feedsync.records.new': counts.new, 'feedsync.records.updated': counts.updated, 'feedsync.records.unchanged': counts.unchanged };
}

/** A page's store (its records, envelope and checkpoint in one transaction) in a span, with what it did to the records. */
export function inStoreSpan<T extends { counts: RecordCounts }>(page: number, store: () => Promise<T>): Promise<T> {
  return inSpan('store page', { attributes: { 'feedsync.page': page } }, async (span) => {
    const stored = await store();
    span.setAttributes(countAttributes(stored.counts));
    return stored;
  });
}

/** What a page's fetch span is told as its requests go: retries and rate-limit waits. */
export interface FetchSpanHooks {
  onRetry(kind: string, retry: number, delayMs: number): void;
  onRateLimitWait(waitedMs: number): void;
}

/**
 * A page's fetch, retries and rate-limit waits included, in a span; each request in it is a
 * client span of its own (SourceClient). The waits sum into `feedsync.rate_limit.wait_ms`, the
 * retries into `feedsync.page.retries`, each retry an event.
 */
export function inFetchSpan<T>(page: number, fetch: (hooks: FetchSpanHooks) => Promise<T>): Promise<T> {
  return inSpan('fetch page', { attributes: { 'feedsync.page': page } }, (span: Span) => {
    let waitedMs = 0;
    return fetch({
      onRetry: (kind, retry, delayMs) => {
        span.setAttribute('feedsync.page.retries', retry);
        span.addEvent('retry', { 'error.type': kind, 'feedsync.retry': retry, 'feedsync.retry.delay_ms': delayMs });
      },
      onRateLimitWait: (ms) => {
        waitedMs += ms;
        span.setAttribute('feedsync.rate_limit.wait_ms', Math.round(waitedMs));
      },
    });
  });
}
