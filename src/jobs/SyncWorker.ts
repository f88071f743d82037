import { setMaxListeners } from 'node:events';
import { DelayedError, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { findJob, resolveQuery } from '../config/resolveQuery.js';
import type { Config } from '../config/schema.js';
import type { FeedsyncMetrics } from '../observability/FeedsyncMetrics.js';
import type { Logger } from '../observability/logger.js';
import type { Database } from '../storage/database.js';
import { hasNotice } from '../storage/noticeQueries.js';
import type { RunStore } from '../storage/RunStore.js';
import type { NoticeToQueue, RunOutcome, RunState } from '../storage/runState.js';
import type { SourceRegistry } from '../sync/SourceRegistry.js';
import { syncQuery, type RunSummary } from '../sync/syncQuery.js';
import { queueOutboxDrain, SYNC_QUEUE, type Queues, type SyncJobData } from './queues.js';

/** What the sync worker runs with: the parts of a process it shares. */
export interface SyncWorkerRuntime {
  config: Config;
  store: RunStore;
  storage: { db: Database };
  sources: SourceRegistry;
  logger: Logger;
  metrics: FeedsyncMetrics | undefined;
  /** Makes a run's completion notice; absent when no webhook is configured. */
  noticeFor: ((run: RunState) => NoticeToQueue) | undefined;
}

export interface SyncWorkerOptions {
  /** The Redis connection the worker blocks on: its own, not shared. */
  connection: Redis;
  queues: Queues;
  /**
   * After a run's notice is committed: hands it to a drain delivering in this process and
   * returns true, or returns false and a drain is queued. Default: always queue one.
   */
  handToRunningDrain?: () => boolean;
}

/** What a sync job returns to BullMQ: small, it is kept in Redis with the job. */
export interface SyncJobResult {
  runId: string;
  status: RunSummary['status'];
  pages: number;
  records: RunSummary['counts'];
}

/** BullMQ's reason for failing a job whose worker stopped renewing its lock too many times. */
const STALLED_TOO_OFTEN = /stalled more than allowable limit/;

/** A job's progress (pages, records) is written to Redis at most this often: status needs no more, and a run of one page none. */
const PROGRESS_INTERVAL_MS = 1_000;

/** Delay before a "queue one" run looks again whether the previous run has ended. */
const OVERLAP_RECHECK_MS = 5_000;

/**
 * Processes sync jobs: one job is one run, resumed from its checkpoint on every attempt. A
 * failure is retried with backoff unless it cannot succeed (bad key, 4xx); the last failure
 * still yields a failure notice. On close, current runs stop after the page in hand and go back
 * to the queue.
 */
export class SyncWorker {
  private readonly worker: Worker<SyncJobData, SyncJobResult>;
  private readonly shutdown = new AbortController();
  private readonly queues: Queues;
  private readonly handToRunningDrain: () => boolean;

  constructor(
    private readonly runtime: SyncWorkerRuntime,
    { connection, queues, handToRunningDrain }: SyncWorkerOptions,
  ) {
    this.queues = queues;
    this.handToRunningDrain = handToRunningDrain ?? (() => false);
    const { worker: settings } = runtime.config;
    this.worker = new Worker<SyncJobData, SyncJobResult>(SYNC_QUEUE, (job, token) => this.process(job, token), {
      connection,
      prefix: settings.prefix,
      concurrency: settings.concurrency,
      lockDuration: settings.lockDurationMs,
      stalledInterval: settings.stalledIntervalMs,
      // BullMQ never resets a job's stall count: left at its default of 1, any two crashes in a long
      // run's life would fail it, although it resumes from its checkpoint.
      maxStalledCount: settings.maxCrashes,
      autorun: false,
    });
    // Every run in progress listens for shutdown on this signal.
    setMaxListeners(settings.concurrency + 10, this.shutdown.signal);
    this.worker.on('error', (error) => runtime.logger.error({ err: error }, 'sync worker error'));
    this.worker.on('failed', (job, error) => {
      if (!job || error instanceof DelayedError) return;
      runtime.logger.warn({ runKey: job.data.runKey, attemptsMade: job.attemptsMade, err: { message: error.message } }, 'sync job attempt failed');
      // BullMQ's own verdict, not the run's: this also sees what never reached syncQuery's decision
      // (a stall, a lost lock, a finish that could not be written).
      const final = error instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1) || STALLED_TOO_OFTEN.test(error.message);
      if (final) void this.closeAbandonedRun(job, error);
    });
  }

  /** Starts taking jobs; resolves when the worker has stopped. */
  run(): Promise<void> {
    return this.worker.run();
  }

  waitUntilReady(): Promise<unknown> {
    return this.worker.waitUntilReady();
  }

  /** Stops taking jobs, lets current runs store their page, and waits up to `timeoutMs`. */
  async close(timeoutMs = this.runtime.config.worker.drainTimeoutMs): Promise<boolean> {
    this.shutdown.abort();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    const closed = this.worker.close().then(() => true);
    const drained = await Promise.race([closed, timedOut]);
    clearTimeout(timer);
    if (!drained) await this.worker.close(true);
    return drained;
  }

  /** After a notice is committed: a drain delivering in this process is handed it, or one is queued. */
  private async requestDrain(): Promise<void> {
    if (!this.handToRunningDrain()) await queueOutboxDrain(this.queues);
  }

  /**
   * A job that failed for good without its processor recording the outcome (stalled too often,
   * or Postgres down at the end): the run is closed as failed and its notice queued, so that no
   * run stays "running" and no failure goes unannounced.
   */
  private async closeAbandonedRun(job: Job<SyncJobData, SyncJobResult>, error: Error): Promise<void> {
    const { store, storage, logger, noticeFor } = this.runtime;
    try {
      const run = await store.claims.findByKey(job.data.runKey);
      if (!run || run.status === 'succeeded') return;
      if (run.status === 'failed' && (!noticeFor || (await hasNotice(storage.db, run.id)))) return;
      await store.finishes.finish(run.id, abandonedOutcome(run, job, error, this.runtime.config.worker.maxCrashes), (ended) => noticeFor?.(ended));
      if (noticeFor) await this.requestDrain();
      this.runtime.metrics?.runEnded(job.data.job, 'failed');
      logger.error({ runId: run.id, runKey: run.runKey, err: { message: error.message } }, 'run abandoned by its job; recorded as failed');
    } catch (closeError) {
      logger.error({ runKey: job.data.runKey, err: { message: (closeError as Error).message } }, 'could not record an abandoned run; `feedsync status` shows it as running');
    }
  }

  private async process(job: Job<SyncJobData, SyncJobResult>, token: string | undefined): Promise<SyncJobResult> {
    const { config, store, sources, logger } = this.runtime;
    const data = job.data;
    let configJob;
    let query;
    try {
      configJob = findJob(config, data.job);
      query = resolveQuery(config, configJob, data.queryIndex);
    } catch (error) {
      throw new UnrecoverableError((error as Error).message);
    }
    if (configJob.overlap === 'queue' && (await store.running.anotherIsRunning(data.job, data.queryIndex, data.runKey))) {
      await job.moveToDelayed(Date.now() + OVERLAP_RECHECK_MS, token);
      throw new DelayedError();
    }
    const metrics = this.runtime.metrics;
    let progressAt = performance.now();
    const summary = await syncQuery(
      query,
      {
        id: data.runId,
        runKey: data.runKey,
        job: data.job,
        source: query.sourceName,
        queryIndex: data.queryIndex,
        queryKey: query.queryKey,
        query: { q: query.q ?? null, params: query.params },
        scheduledFor: data.scheduledFor ? new Date(data.scheduledFor) : undefined,
        crashes: job.stalledCounter,
      },
      {
        store,
        client: sources.client(query.sourceName),
        gate: sources.gate(query.sourceName),
        logger,
        noticeFor: this.runtime.noticeFor,
        signal: this.shutdown.signal,
        databaseOutageMs: config.worker.databaseOutageMs,
        attempts: { made: job.attemptsMade, allowed: job.opts.attempts ?? 1 },
        onPage: (progress) => {
          metrics?.pageStored(query.sourceName, query.records.kind, progress.pageCounts);
          if (performance.now() - progressAt < PROGRESS_INTERVAL_MS) return;
          progressAt = performance.now();
          // Best effort: a progress figure lost (Redis out of reach, the job's key gone) never fails a stored page.
          return job.updateProgress({ pages: progress.pages, records: progress.records, expectedTotal: progress.expectedTotal ?? null }).catch((error: unknown) => {
            logger.debug({ err: { message: (error as Error).message } }, 'progress not reported');
          });
        },
        onRetry: (error) => metrics?.retried(query.sourceName, error.kind),
        onRateLimitWait: (waitedMs) => metrics?.waitedForRateLimit(query.sourceName, waitedMs),
      },
    );
    const result: SyncJobResult = { runId: summary.runId, status: summary.status, pages: summary.pages, records: summary.counts };
    if (summary.status === 'interrupted') {
      // Back to the queue without using an attempt; the next worker resumes from the checkpoint.
      await job.moveToDelayed(Date.now(), token);
      throw new DelayedError();
    }
    if (summary.status === 'failed' && summary.error) {
      const error = summary.error;
      metrics?.runEnded(data.job, summary.final ? 'failed' : 'retrying');
      if (!summary.final) throw error;
      if (this.runtime.noticeFor) await this.requestDrain();
      // No attempt is left, or none could succeed: BullMQ must not try again.
      throw new UnrecoverableError(error.message);
    }
    metrics?.runEnded(data.job, summary.status);
    if (summary.status === 'succeeded' && this.runtime.noticeFor) await this.requestDrain();
    return result;
  }
}

/**
 * Why BullMQ failed a run's job for good without the run recording it: its worker crashed more
 * often than worker.maxCrashes allows, or the run's own last failure could not be recorded.
 */
function abandonedOutcome(run: RunState, job: Job<SyncJobData, SyncJobResult>, error: Error, maxCrashes: number): RunOutcome {
  if (STALLED_TOO_OFTEN.test(error.message)) {
    const error = `the run's worker crashed more than worker.maxCrashes (${maxCrashes}) times; it stopped after page ${run.pages}`;
    return { status: 'failed', errorKind: 'crashed_too_often', error, crashes: job.stalledCounter };
  }
  return { status: 'failed', errorKind: run.errorKind ?? 'abandoned', error: run.error ?? error.message };
}
