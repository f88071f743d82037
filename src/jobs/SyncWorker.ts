import { setMaxListeners } from 'node:events';
import { DelayedError, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { findJob, resolveQuery } from '../config/resolveQuery.js';
import { UpstreamError } from '../http/UpstreamError.js';
import { completionNotice } from '../notices/completionNotice.js';
import { hasNotice } from '../storage/runReports.js';
import { WindowStuckError } from '../paging/Paginator.js';
import { databaseFailureOf, isPermanentDatabaseFailure } from '../storage/databaseError.js';
import type { Runtime } from '../runtime/openRuntime.js';
import { RunTakenOverError } from '../storage/RunStore.js';
import { QueryChangedError, SyncInterruptedError, syncQuery, type RunSummary } from '../sync/syncQuery.js';
import type { NotifyWorker } from './NotifyWorker.js';
import { queueOutboxDrain, SYNC_QUEUE, type Queues, type SyncJobData } from './queues.js';

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

/** Whether a failure is worth another attempt: passing upstream faults and lost races are. */
export function isRetryable(error: Error): boolean {
  if (error instanceof UpstreamError) return error.retryable;
  if (error instanceof RunTakenOverError) return true;
  if (error instanceof WindowStuckError || error instanceof QueryChangedError) return false;
  const database = databaseFailureOf(error);
  // Storage faults (Postgres restarting) are worth retrying; data the database rejects is not.
  return database === undefined || !isPermanentDatabaseFailure(database);
}

/**
 * Processes sync jobs: one job is one run, resumed from its checkpoint on every attempt. A
 * failure is retried with backoff unless it cannot succeed (bad key, 4xx); the last failure
 * still yields a failure notice. On close, current runs stop after the page in hand and go back
 * to the queue.
 */
export class SyncWorker {
  private readonly worker: Worker<SyncJobData, SyncJobResult>;
  private readonly shutdown = new AbortController();

  constructor(
    private readonly runtime: Runtime,
    connection: Redis,
    private readonly queues: Queues,
    /** This process's notify worker, if it runs one: a drain it is running takes up new notices. */
    private readonly localDrains?: Pick<NotifyWorker, 'takeUp'>,
  ) {
    const { worker: settings } = runtime.config;
    this.worker = new Worker<SyncJobData, SyncJobResult>(SYNC_QUEUE, (job, token) => this.process(job, token), {
      connection,
      prefix: settings.prefix,
      concurrency: settings.concurrency,
      lockDuration: settings.lockDurationMs,
      stalledInterval: settings.stalledIntervalMs,
      autorun: false,
    });
    // Every run in progress listens for shutdown on this signal.
    setMaxListeners(settings.concurrency + 10, this.shutdown.signal);
    this.worker.on('error', (error) => runtime.logger.error({ err: error }, 'sync worker error'));
    this.worker.on('failed', (job, error) => {
      if (!job || error instanceof DelayedError) return;
      runtime.logger.warn({ runKey: job.data.runKey, attemptsMade: job.attemptsMade, err: { message: error.message } }, 'sync job attempt failed');
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

  /** After a notice is committed: a drain delivering in this process takes it up, or one is queued. */
  private async requestDrain(): Promise<void> {
    if (!this.localDrains?.takeUp()) await queueOutboxDrain(this.queues);
  }

  /**
   * A job that failed for good without its processor recording the outcome (stalled too often,
   * or Postgres down at the end): the run is closed as failed and its notice queued, so that no
   * run stays "running" and no failure goes unannounced.
   */
  private async closeAbandonedRun(job: Job<SyncJobData, SyncJobResult>, error: Error): Promise<void> {
    const { store, storage, logger, outbox } = this.runtime;
    try {
      const run = await store.findByKey(job.data.runKey);
      if (!run || run.status === 'succeeded') return;
      if (run.status === 'failed' && (!outbox || (await hasNotice(storage.db, run.id)))) return;
      await store.finish(run.id, { status: 'failed', errorKind: run.errorKind ?? 'abandoned', error: run.error ?? error.message }, (ended) =>
        outbox ? completionNotice(ended) : undefined,
      );
      if (outbox) await this.requestDrain();
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
    if (configJob.overlap === 'queue' && (await store.otherRunning(data.job, data.queryIndex, data.runKey))) {
      await job.moveToDelayed(Date.now() + OVERLAP_RECHECK_MS, token);
      throw new DelayedError();
    }
    const attempts = job.opts.attempts ?? 1;
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
      },
      {
        store,
        client: sources.client(query.sourceName),
        gate: sources.gate(query.sourceName),
        logger,
        notify: this.runtime.outbox !== undefined,
        signal: this.shutdown.signal,
        isFinalAttempt: (error) => !isRetryable(error as Error) || job.attemptsMade + 1 >= attempts,
        onPage: (progress) => {
          metrics?.pageStored(query.sourceName, query.records.kind, progress.pageCounts);
          if (performance.now() - progressAt < PROGRESS_INTERVAL_MS) return;
          progressAt = performance.now();
          return job.updateProgress({ pages: progress.pages, records: progress.records, expectedTotal: progress.expectedTotal ?? null });
        },
        onRetry: (error) => metrics?.retried(query.sourceName, error.kind),
        onRateLimitWait: (waitedMs) => metrics?.waitedForRateLimit(query.sourceName, waitedMs),
      },
    );
    const result: SyncJobResult = { runId: summary.runId, status: summary.status, pages: summary.pages, records: summary.counts };
    if (summary.status === 'failed' && summary.error) {
      const error = summary.error;
      if (error instanceof SyncInterruptedError) {
        // Back to the queue without using an attempt; the next worker resumes from the checkpoint.
        await job.moveToDelayed(Date.now(), token);
        throw new DelayedError();
      }
      const final = !isRetryable(error) || job.attemptsMade + 1 >= attempts;
      metrics?.runEnded(data.job, final ? 'failed' : 'retrying');
      if (final && this.runtime.outbox) await this.requestDrain();
      if (!isRetryable(error)) throw new UnrecoverableError(error.message);
      throw error;
    }
    metrics?.runEnded(data.job, summary.status);
    if (summary.status === 'succeeded' && this.runtime.outbox) await this.requestDrain();
    return result;
  }
}
