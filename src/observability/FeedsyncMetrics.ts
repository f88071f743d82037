import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { registerScrapeGauges, type ScrapeSources } from './scrapeGauges.js';

export type { IdleRunFigures, JobTickFigures, ScrapeSources } from './scrapeGauges.js';

/** What a stored page did to the records table, by outcome. */
export type PageOutcomes = Readonly<Record<'new' | 'updated' | 'unchanged', number>>;

/**
 * feedsync's Prometheus metrics, in a registry of its own. Counters are fed as work happens;
 * queue depths, workers, notice states, ticks and unfinished runs are read at scrape time (see
 * registerScrapeGauges).
 */
export class FeedsyncMetrics {
  readonly registry = new Registry();
  private readonly runs = new Counter({ name: 'feedsync_runs_total', help: 'Sync runs ended, by job and final status', labelNames: ['job', 'status'], registers: [this.registry] });
  private readonly pages = new Counter({ name: 'feedsync_pages_total', help: 'Pages fetched and stored', labelNames: ['source'], registers: [this.registry] });
  private readonly records = new Counter({
    name: 'feedsync_records_total',
    help: 'Records stored, by outcome: new, updated, or unchanged (not rewritten)',
    labelNames: ['source', 'kind', 'outcome'],
    registers: [this.registry],
  });
  private readonly requests = new Counter({
    name: 'feedsync_upstream_requests_total',
    help: 'Upstream requests, by source and outcome (HTTP status, or an error kind when there was none)',
    labelNames: ['source', 'status'],
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'feedsync_upstream_request_duration_seconds',
    help: 'Upstream request latency, to the end of the body',
    labelNames: ['source'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  private readonly retries = new Counter({ name: 'feedsync_retries_total', help: 'Upstream requests retried, by error kind', labelNames: ['source', 'kind'], registers: [this.registry] });
  private readonly rateLimitWait = new Counter({
    name: 'feedsync_rate_limit_wait_seconds_total',
    help: 'Time spent waiting for the source rate limit',
    labelNames: ['source'],
    registers: [this.registry],
  });
  private readonly deliveries = new Counter({
    name: 'feedsync_notice_deliveries_total',
    help: 'Notice delivery attempts, by result: delivered, failed (will retry), exhausted (gave up)',
    labelNames: ['result'],
    registers: [this.registry],
  });
  private readonly ticks = new Counter({
    name: 'feedsync_ticks_total',
    help: 'Job ticks ended in this process, by job and status: succeeded, partial, failed',
    labelNames: ['job', 'status'],
    registers: [this.registry],
  });
  private readonly databaseWait = new Counter({
    name: 'feedsync_database_outage_wait_seconds_total',
    help: 'Time runs spent waiting out a Postgres outage (down, restarting, out of reach) before going on',
    registers: [this.registry],
  });

  /** `rateLimits`: each rate-limited source's sustained limit, in requests per second. */
  constructor(sources?: ScrapeSources, rateLimits: Readonly<Record<string, number>> = {}) {
    collectDefaultMetrics({ register: this.registry, prefix: 'feedsync_' });
    const limits = new Gauge({
      name: 'feedsync_rate_limit_requests_per_second',
      help: "The source's rate limit as a sustained rate: its tightest window's max over its duration, across every worker",
      labelNames: ['source'],
      registers: [this.registry],
    });
    for (const [source, perSecond] of Object.entries(rateLimits)) limits.set({ source }, perSecond);
    if (sources) registerScrapeGauges(this.registry, sources);
  }

  runEnded(job: string, status: string): void {
    this.runs.inc({ job, status });
  }

  pageStored(source: string, kind: string, counts: PageOutcomes): void {
    this.pages.inc({ source });
    if (counts.new) this.records.inc({ source, kind, outcome: 'new' }, counts.new);
    if (counts.updated) this.records.inc({ source, kind, outcome: 'updated' }, counts.updated);
    if (counts.unchanged) this.records.inc({ source, kind, outcome: 'unchanged' }, counts.unchanged);
  }

  requestEnded(source: string, status: string, latencyMs: number): void {
    this.requests.inc({ source, status });
    this.latency.observe({ source }, latencyMs / 1000);
  }

  retried(source: string, kind: string): void {
    this.retries.inc({ source, kind });
  }

  waitedForRateLimit(source: string, waitedMs: number): void {
    this.rateLimitWait.inc({ source }, waitedMs / 1000);
  }

  noticeAttempted(result: 'delivered' | 'failed' | 'exhausted'): void {
    this.deliveries.inc({ result });
  }

  tickEnded(job: string, status: string): void {
    this.ticks.inc({ job, status });
  }

  waitedForDatabase(waitedMs: number): void {
    this.databaseWait.inc(waitedMs / 1000);
  }
}
