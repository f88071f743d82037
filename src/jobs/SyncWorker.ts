import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import { DelayedError, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { RedisClient } from '../redis/RedisTarget.js';
import { findJob, resolveQuery } from '../config/jobs/resolveQuery.js';
import type { Config } from '../config/schema.js';
import type { FeedsyncMetrics } from '../observability/FeedsyncMetrics.js';
import type { Logger } from '../observability/logger.js';
import { queueTelemetry } from '../observability/tracing/queueTelemetry.js';
import { RunTakenOverError } from '../storage/pages/PageWrites.js';
import type { RunStore } from '../storage/runStore.js';
import type { NoticeToQueue, RunState } from '../storage/runs/runState.js';
import type { SourceRegistry } from '../sync/SourceRegistry.js';
import { runIdentityOf } from '../sync/runIdentity.js';
import { QUEUED_RUN_KEY_PATTERNS } from '../sync/runKeys.js';
import { syncQuery, type RunSummary } from '../sync/syncQuery.js';
import { AbandonedRuns, abandonedOutcome, stalledTooOften } from './AbandonedRuns.js';
import { LostJobs } from './LostJobs.js';
import { queueOutboxDrain, type Queues, type SyncJobData } from './queues.js';

/** What the sync worker runs with: the parts of a process it shares. */
export interface SyncWorkerRuntime {
  config: Config;
  store: RunStore;
  sources: SourceRegistry;
  logger: Logger;
  metrics: FeedsyncMetrics | undefined;
  /** Makes a run's completion notice; absent when no webhook is configured. */
  noticeFor: ((run: RunState) => NoticeToQueue) | undefined;
}

export interface SyncWorkerOptions {
  /** The Redis connection the worker blocks on: its own, not shared. */
  connection: RedisClient;
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
  /** Closes runs whose job BullMQ failed for good without the run recording it. */
  readonly abandoned: AbandonedRuns;
  /** Failures thrown to BullMQ that the run logged already (see loggedAlready). */
  private readonly failuresLogged = new WeakSet<Error>();
  private readonly lostJobs: LostJobs;

  constructor(
    private readonly runtime: SyncWorkerRuntime,
    { connection, queues, handToRunningDrain }: SyncWorkerOptions,
  ) {
    this.queues = queues;
    this.handToRunningDrain = handToRunningDrain ?? (() => false);
    this.abandoned = new AbandonedRuns({ ...runtime, requestDrain: () => this.requestDrain() });
    this.lostJobs = new LostJobs(runtime.logger);
    // A tick ended with a run of this process: its notice, if any, is committed and due.
    runtime.store.tickEnds.add(() => void this.requestDrain());
    const { worker: settings } = runtime.config;
    this.worker = new Worker<SyncJobData, SyncJobResult>(queues.names.sync, (job, token) => this.process(job, token), {
      connection,
      // Kept with each job it takes (processedBy): which process holds a run.
      name: `${hostname()}:${process.pid}`,
      prefix: settings.prefix,
      concurrency: settings.concurrency,
      lockDuration: settings.lockDurationMs,
      stalledInterval: settings.stalledIntervalMs,
      // BullMQ never resets a job's stall count: left at its default of 1, any two crashes in a long
      // run's life would fail it, although it resumes from its checkpoint. The run's row counts
      // them too (claimRuns), past a job queued again after Redis lost its data: syncQuery stops it there.
      maxStalledCount: settings.maxCrashes,
      autorun: false,
      // A run's spans continue its tick's trace, carried in the job.
      telemetry: queueTelemetry(),
    });
    // Every run in progress listens for shutdown on this signal.
    setMaxListeners(settings.concurrency + 10, this.shutdown.signal);
    // The message only: a Redis error carries the command it failed, a refused AUTH its password.
    this.worker.on('error', (error) => {
      if (!this.lostJobs.handled(error)) runtime.logger.error({ err: { name: error.name, message: error.message } }, 'sync worker error');
    });
    this.worker.on('failed', (job, error) => {
      if (!job || error instanceof DelayedError) return;
      // A run's own failure was logged where the run handled it (syncQuery); only others are logged here.
      if (!this.failuresLogged.has(error)) runtime.logger.warn({ runKey: job.data.runKey, attemptsMade: job.attemptsMade, err: { message: error.message } }, 'sync job attempt failed');
      // BullMQ's own verdict, not the run's: this also sees what never reached syncQuery's decision
      // (a stall, a lost lock, a finish that could not be written).
      const final = error instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1) || stalledTooOften(error);
      if (final) void this.abandoned.close(job.data.runKey, (run) => abandonedOutcome(run, error, settings.maxCrashes));
    });
  }

  /** A failure the run logged itself, thrown to BullMQ: its `failed` event logs it no more. */
  private loggedAlready(error: Error): Error {
    this.failuresLogged.add(error);
    return error;
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

  /**
   * After a notice is committed: a drain delivering in this process is handed it, or one is
   * queued. Never throws: the run's outcome is committed already, and the outbox's sweep delivers
   * a notice whose drain could not be queued.
   */
  private async requestDrain(): Promise<void> {
    if (this.handToRunningDrain()) return;
    await queueOutboxDrain(this.queues).catch((error: unknown) => {
      this.runtime.logger.warn({ err: { message: (error as Error).message } }, 'could not queue notice delivery; the outbox sweep delivers it');
    });
  }

  private async process(job: Job<SyncJobData, SyncJobResult>, token: string | undefined): Promise<SyncJobResult> {
    const { config, store, sources, logger } = this.runtime;
    const data = job.data;
    this.lostJobs.takenUp(job.id);
    let configJob;
    let query;
    try {
      configJob = findJob(config, data.job);
      query = resolveQuery(config, configJob, data.queryIndex, data.value);
    } catch (error) {
      throw new UnrecoverableError((error as Error).message);
    }
    if (configJob.overlap === 'queue' && (await store.running.anotherIsRunning(data.job, query.queryKey, data.runKey, QUEUED_RUN_KEY_PATTERNS))) {
      await job.moveToDelayed(Date.now() + OVERLAP_RECHECK_MS, token);
      throw new DelayedError();
    }
    const metrics = this.runtime.metrics;
    let progressAt = performance.now();
    const summary = await handingBackTakeOvers(job, token, () => syncQuery(
      query,
      runIdentityOf(query, data.runKey, { id: data.runId, scheduledFor: data.scheduledFor ? new Date(data.scheduledFor) : undefined, tickId: data.tickId }),
      {
        store,
        client: sources.client(query.sourceName),
        gate: sources.gate(query.sourceName),
        logger,
        noticeFor: this.runtime.noticeFor,
        signal: this.shutdown.signal,
        databaseOutageMs: config.worker.databaseOutageMs,
        maxCrashes: config.worker.maxCrashes,
        attempts: { made: job.attemptsMade, allowed: job.opts.attempts ?? 1 },
        onPage: (progress) => {
          metrics?.pageStored(query.sourceName, query.records.kind, progress.pageCounts);
          if (performance.now() - progressAt < PROGRESS_INTERVAL_MS) return;
          progressAt = performance.now();
          // Best effort, not awaited: a Redis out of reach never holds up the next page, and a
          // progress figure lost (the job's key gone) never fails a stored page.
          void job.updateProgress({ pages: progress.pages, records: progress.records, expectedTotal: progress.expectedTotal ?? null }).catch((error: unknown) => {
            logger.debug({ err: { message: (error as Error).message } }, 'progress not reported');
          });
        },
        onRetry: (error) => metrics?.retried(query.sourceName, error.kind),
        onRateLimitWait: (waitedMs) => metrics?.waitedForRateLimit(query.sourceName, waitedMs),
        onDatabaseWait: (waitMs) => metrics?.waitedForDatabase(waitMs),
      },
    ));
    const result: SyncJobResult = { runId: summary.runId, status: summary.status, pages: summary.pages, records: summary.counts };
    if (summary.status === 'interrupted') {
      // Back to the queue without using an attempt; the next worker resumes from the checkpoint.
      await job.moveToDelayed(Date.now(), token);
      throw new DelayedError();
    }
    if (summary.status === 'failed' && summary.error) {
      const error = summary.error;
      metrics?.runEnded(data.job, summary.final ? 'failed' : 'retrying');
      if (!summary.final) throw this.loggedAlready(error);
      if (this.runtime.noticeFor) await this.requestDrain();
      // No attempt is left, or none could succeed: BullMQ must not try again.
      throw this.loggedAlready(new UnrecoverableError(error.message));
    }
    metrics?.runEnded(data.job, summary.status);
    if ((summary.status === 'succeeded' || summary.status === 'partial') && this.runtime.noticeFor) await this.requestDrain();
    return result;
  }
}

/**
 * Runs a run's attempt; if its row was taken over meanwhile, hands the job back to the queue
 * without using an attempt. Either another worker holds the job now (its lock moved, and this
 * hand-back fails harmlessly), or this worker's own page write committed as the database
 * connection dropped, and the next take-up resumes after that page.
 */
async function handingBackTakeOvers<T>(job: Job<SyncJobData, SyncJobResult>, token: string | undefined, attempt: () => Promise<T>): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    if (!(error instanceof RunTakenOverError)) throw error;
    await job.moveToDelayed(Date.now(), token);
    throw new DelayedError();
  }
}
