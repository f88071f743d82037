import { Gauge, type Registry } from 'prom-client';

/** A configured job's ticks, as Postgres has them when Prometheus scrapes. */
export interface JobTickFigures {
  job: string;
  /** How its latest ended tick went (succeeded, partial, failed); undefined before one has ended. */
  lastStatus: string | undefined;
  /** A scheduled job's standing against its schedule; absent for a job without one. */
  schedule?: {
    /** When its latest scheduled tick was for; undefined before its first. */
    lastScheduledFor: Date | undefined;
    /** The latest firing that should have its tick by now; undefined when none is due yet. */
    dueAt: Date | undefined;
  };
}

/** How long the unfinished runs of a job in one state have stored nothing: the longest of them. */
export interface IdleRunFigures {
  job: string;
  state: string;
  idleSeconds: number;
}

/** Reads live figures (queues, workers, notices, ticks, unfinished runs) when Prometheus scrapes. */
export interface ScrapeSources {
  queueCounts(): Promise<Record<string, Record<string, number>>>;
  /** Workers connected to each queue, across every process on this Redis prefix. */
  queueWorkers(): Promise<Record<string, number>>;
  noticeCounts(): Promise<Record<string, number>>;
  jobTicks(): Promise<JobTickFigures[]>;
  idleRuns(): Promise<IdleRunFigures[]>;
  /** Told when a reading fails or comes too late, its gauges left out of that scrape's answer. */
  readFailed?(gauges: string, error: Error): void;
}

/** How long a scrape waits for a reading before leaving its gauges out of the answer. */
const READ_TIMEOUT_MS = 2_000;
const TICK_STATUSES = ['succeeded', 'partial', 'failed'] as const;

/**
 * A reading that the gauges of one scrape share (prom-client collects them all at once), and that
 * gives undefined when it fails or does not come in READ_TIMEOUT_MS: a database or Redis out of
 * reach leaves those gauges out rather than failing the whole scrape, counters included.
 */
function sharedReading<T>(gauges: string, read: () => Promise<T>, failed: ScrapeSources['readFailed']): () => Promise<T | undefined> {
  let inFlight: Promise<T | undefined> | undefined;
  return () => {
    inFlight ??= within(read(), READ_TIMEOUT_MS)
      .catch((error: unknown) => {
        failed?.(gauges, error instanceof Error ? error : new Error(String(error)));
        return undefined;
      })
      .finally(() => (inFlight = undefined));
    return inFlight;
  };
}

async function within<T>(reading: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)));
  try {
    return await Promise.race([reading, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A gauge set anew from a reading at each scrape; empty when the reading fails. */
function scrapeGauge<T, L extends string>(registry: Registry, name: string, help: string, labelNames: L[], read: () => Promise<T | undefined>, fill: (gauge: Gauge<L>, value: T) => void): void {
  new Gauge<L>({
    name,
    help,
    labelNames,
    registers: [registry],
    async collect() {
      const value = await read();
      this.reset();
      if (value !== undefined) fill(this, value);
    },
  });
}

const seconds = (at: Date): number => at.getTime() / 1000;

/** Registers the gauges read at scrape time. */
export function registerScrapeGauges(registry: Registry, sources: ScrapeSources): void {
  const reading = <T>(gauges: string, read: () => Promise<T>) => sharedReading(gauges, read, (what, error) => sources.readFailed?.(what, error));
  scrapeGauge(registry, 'feedsync_queue_jobs', 'Jobs in each BullMQ queue, by state', ['queue', 'state'], reading('feedsync_queue_jobs', () => sources.queueCounts()), (gauge, counts) => {
    for (const [queue, states] of Object.entries(counts)) {
      for (const [state, count] of Object.entries(states)) gauge.set({ queue, state }, count);
    }
  });
  scrapeGauge(registry, 'feedsync_queue_workers', 'Workers connected to each BullMQ queue, from every process sharing its Redis prefix', ['queue'], reading('feedsync_queue_workers', () => sources.queueWorkers()), (gauge, counts) => {
    for (const [queue, count] of Object.entries(counts)) gauge.set({ queue }, count);
  });
  scrapeGauge(registry, 'feedsync_notices', 'Completion notices in the outbox, by delivery state', ['state'], reading('feedsync_notices', () => sources.noticeCounts()), (gauge, counts) => {
    for (const [state, count] of Object.entries(counts)) gauge.set({ state }, count);
  });
  const jobTicks = reading('feedsync_job_*', () => sources.jobTicks());
  scrapeGauge(registry, 'feedsync_job_last_tick_status', "1 for the status of the job's latest ended tick (succeeded, partial, failed), 0 for the others", ['job', 'status'], jobTicks, (gauge, jobs) => {
    for (const { job, lastStatus } of jobs) {
      if (lastStatus !== undefined) for (const status of TICK_STATUSES) gauge.set({ job, status }, status === lastStatus ? 1 : 0);
    }
  });
  scrapeGauge(registry, 'feedsync_job_last_scheduled_tick_timestamp_seconds', "When the job's latest scheduled tick was for, in Unix seconds (0: none yet); scheduled jobs only", ['job'], jobTicks, (gauge, jobs) => {
    for (const { job, schedule } of jobs) if (schedule) gauge.set({ job }, schedule.lastScheduledFor ? seconds(schedule.lastScheduledFor) : 0);
  });
  scrapeGauge(
    registry,
    'feedsync_job_tick_due_timestamp_seconds',
    "The latest firing of the job's schedule that should have its tick by now (a minute's grace), in Unix seconds; for a job never ticked on schedule, only firings since this process started",
    ['job'],
    jobTicks,
    (gauge, jobs) => {
      for (const { job, schedule } of jobs) if (schedule?.dueAt) gauge.set({ job }, seconds(schedule.dueAt));
    },
  );
  scrapeGauge(
    registry,
    'feedsync_run_max_idle_seconds',
    "How long the job's unfinished runs in each state (queued, running, interrupted, retrying) have stored nothing: the longest of them",
    ['job', 'state'],
    reading('feedsync_run_max_idle_seconds', () => sources.idleRuns()),
    (gauge, runs) => {
      for (const { job, state, idleSeconds } of runs) gauge.set({ job, state }, idleSeconds);
    },
  );
}
