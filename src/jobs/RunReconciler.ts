import type { Job } from 'bullmq';
import type { RedisClient } from '../redis/RedisTarget.js';
import type { Config } from '../config/schema.js';
import type { Logger } from '../observability/logger.js';
import type { IdleRun } from '../storage/runs/RunningRuns.js';
import type { RunStore } from '../storage/runStore.js';
import { IN_PROCESS_RUN_KEY_PATTERNS, QUEUED_RUN_KEY_PATTERNS } from '../sync/runKeys.js';
import { abandonedOutcome, type AbandonedRuns } from './AbandonedRuns.js';
import type { Queues, SyncJobData } from './queues.js';
import type { SyncJobResult } from './SyncWorker.js';

export interface RunReconcilerOptions {
  /** How often this process looks (0: never by itself; `sweep()` still works). */
  intervalMs: number;
  /**
   * How long an unfinished run's row must have been still before its queue job is looked for: at
   * least a lock period, so that a run whose job is being finished or retried is left alone.
   */
  idleForMs: number;
  /** Runs quiet for longer than this are left alone: unfinished rows that old are not the work of a lost queue (rows from before an upgrade, say). */
  changedWithinMs: number;
  /** Runs looked at per sweep, longest idle first. */
  batchSize?: number;
}

/** What one sweep did, by run key. */
export interface SweepResult {
  /** Runs whose job was gone, queued again under their run key. */
  requeued: string[];
  /** Runs that could not go on (their query left the config, their job failed unrecorded, or the `feedsync run` process running them is gone), closed as failed. */
  closed: string[];
}

const DEFAULT_BATCH = 100;

/**
 * Finds runs that Postgres says are unfinished (running, interrupted, retrying) but whose BullMQ
 * job is gone, as after a Redis restart that lost its data, and queues them again under their run
 * key, so that they resume from their checkpoint. A run whose query left the config, or whose job
 * BullMQ failed for good without the run recording it, is closed as failed with its notice.
 *
 * Every worker process runs one. Sweeps are safe side by side (a job id is queued once; a close
 * is fenced on the row's version); a short Redis lease keeps all but one process from repeating
 * the same look each interval.
 */
export class RunReconciler {
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<unknown> | undefined;
  private readonly leaseKey: string;

  constructor(
    private readonly runtime: { config: Config; store: RunStore; logger: Logger },
    private readonly queues: Queues,
    private readonly redis: RedisClient,
    private readonly abandoned: AbandonedRuns,
    private readonly options: RunReconcilerOptions,
  ) {
    this.leaseKey = `${runtime.config.worker.prefix}:reconciler`;
  }

  start(): void {
    if (this.options.intervalMs <= 0) return;
    this.timer = setInterval(() => {
      this.sweeping ??= this.sweepIfLeading().finally(() => (this.sweeping = undefined));
    }, this.options.intervalMs);
  }

  /** Stops looking; waits for a sweep under way. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }

  /** One look at the idle unfinished runs; re-queues or closes those whose job is gone. */
  async sweep(): Promise<SweepResult> {
    const { store } = this.runtime;
    const result: SweepResult = { requeued: [], closed: [] };
    const runs = await store.running.idle(this.options.idleForMs, this.options.changedWithinMs, QUEUED_RUN_KEY_PATTERNS, this.options.batchSize ?? DEFAULT_BATCH);
    for (const runKey of await this.closeLeftInProcess()) result.closed.push(runKey);
    for (const run of runs) {
      const state = await this.queues.sync.getJobState(run.runKey);
      if (state === 'failed') {
        const job = (await this.queues.sync.getJob(run.runKey)) as Job<SyncJobData, SyncJobResult> | undefined;
        if (job && (await this.closeFailedJob(run, job))) result.closed.push(run.runKey);
      } else if (state === 'unknown') {
        const done = await this.takeUp(run);
        if (done) result[done].push(run.runKey);
      }
    }
    return result;
  }

  /**
   * Closes as failed the idle unfinished runs of ticks that `feedsync run` ran in its own process,
   * once that process is gone (killed: nothing else takes its runs up), so that their tick ends
   * with its notice. A process still running holds its tick's mark, and its runs are left alone.
   */
  private async closeLeftInProcess(): Promise<string[]> {
    const { store } = this.runtime;
    const runs = await store.running.idle(this.options.idleForMs, this.options.changedWithinMs, IN_PROCESS_RUN_KEY_PATTERNS, this.options.batchSize ?? DEFAULT_BATCH);
    const closed: string[] = [];
    for (const tickId of new Set(runs.flatMap((run) => (run.tickId ? [run.tickId] : [])))) {
      if (!(await store.ticks.inProcessRunnerGone(tickId))) continue;
      for (const run of runs.filter((candidate) => candidate.tickId === tickId)) {
        const error = `the \`feedsync run\` process running it stopped (killed?) before it ended, after page ${run.pages}`;
        if (await this.abandoned.close(run.runKey, () => ({ status: 'failed', errorKind: 'process_stopped', error }))) closed.push(run.runKey);
      }
    }
    return closed;
  }

  private async sweepIfLeading(): Promise<void> {
    try {
      const leased = await this.redis.set(this.leaseKey, String(process.pid), 'PX', this.options.intervalMs, 'NX');
      if (leased !== 'OK') return;
      const { requeued, closed } = await this.sweep();
      if (requeued.length + closed.length > 0) this.runtime.logger.info({ requeued: requeued.length, closed: closed.length }, 'reconciled runs whose queue job was gone');
      const ticks = await this.runtime.store.ticks.countUncounted(this.options.idleForMs);
      if (ticks.length > 0) this.runtime.logger.warn({ ticks: ticks.map((tick) => tick.id) }, 'ended ticks whose last runs had ended uncounted');
    } catch (error) {
      this.runtime.logger.warn({ err: { message: (error as Error).message } }, 'run reconciliation failed; will look again');
    }
  }

  /** A run without a job: queued again if its query is still configured, closed otherwise. */
  private async takeUp(run: IdleRun): Promise<'requeued' | 'closed' | undefined> {
    const { config, store, logger } = this.runtime;
    // Read again: a row that moved since the look belongs to a worker that is on it.
    const current = await store.claims.findByKey(run.runKey);
    if (!current || current.version !== run.version) return undefined;
    const job = config.jobs.find((candidate) => candidate.name === run.job);
    const query = job?.queries[run.queryIndex];
    if (!job || !query || (query.forEach === undefined) !== (run.value === null)) {
      const error = `job "${run.job}" has no query ${run.queryIndex} ${run.value === null ? '' : 'with forEach '}in the config any more; the run cannot go on after page ${run.pages}`;
      return (await this.abandoned.close(run.runKey, () => ({ status: 'failed', errorKind: 'query_removed', error }))) ? 'closed' : undefined;
    }
    const data: SyncJobData = { job: run.job, queryIndex: run.queryIndex, runKey: run.runKey, runId: run.id };
    if (run.scheduledFor) data.scheduledFor = run.scheduledFor.toISOString();
    if (run.tickId) data.tickId = run.tickId;
    if (run.value !== null) data.value = run.value;
    await this.queues.sync.add('sync', data, { jobId: run.runKey });
    logger.warn({ runId: run.id, runKey: run.runKey, status: run.status, pages: run.pages }, 'run had lost its queue job; queued again to resume from its checkpoint');
    return 'requeued';
  }

  /** A job BullMQ failed for good while its run stayed unfinished (the process closing it died). */
  private async closeFailedJob(run: IdleRun, job: Job<SyncJobData, SyncJobResult>): Promise<boolean> {
    const error = new Error(job.failedReason || 'the queue job failed');
    const closed = await this.abandoned.close(run.runKey, (current) => abandonedOutcome(current, error, this.runtime.config.worker.maxCrashes));
    return closed !== undefined;
  }
}
