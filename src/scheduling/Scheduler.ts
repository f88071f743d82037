import cron, { type ScheduledTask } from 'node-cron';
import type { Redis } from 'ioredis';
import type { Config, JobConfig } from '../config/schema.js';
import type { Queues } from '../jobs/queues.js';
import type { Logger } from '../observability/logger.js';
import type { RunningRuns } from '../storage/RunningRuns.js';
import { tickRunKey } from '../sync/runKeys.js';


const MISSED_TICK_TOLERANCE_MS = 60_000;

export interface TickResult {
  queued: number;
  skipped: number;
}

/**
 * Fires each configured job's cron schedule and queues one sync job per query. The BullMQ job id
 * and the Postgres run key are both derived from (job, query, scheduled time), so two schedulers,
 * a crash-looping one or a rolling restart still yield one run per tick.
 */
export class Scheduler {
  private readonly tasks: ScheduledTask[] = [];
  /** Redis hash of the schedules in force: job name → {cron, timezone}. */
  readonly schedulesKey: string;

  constructor(
    private readonly config: Config,
    private readonly queues: Queues,
    /** The overlap check, for jobs whose overlap policy is skip. */
    private readonly running: RunningRuns,
    private readonly redis: Redis,
    private readonly logger: Logger,
  ) {
    this.schedulesKey = `${config.worker.prefix}:schedules`;
  }

  /** Publishes the schedules (dropping those no longer configured) and starts the cron tasks. */
  async start(): Promise<void> {
    await this.publishSchedules();
    for (const job of this.config.jobs) {
      if (!job.schedule) continue;
      const task = cron.schedule(job.schedule.cron, (context) => this.tick(job, context.date), {
        timezone: job.schedule.timezone,
        name: `feedsync-${job.name}`,
        // Run keys make a late tick harmless, so a tick delayed by a busy event loop still fires.
        missedExecutionTolerance: MISSED_TICK_TOLERANCE_MS,
      });
      this.tasks.push(task);
    }
    this.logger.info({ schedules: this.tasks.length }, 'scheduler started');
  }

  async stop(): Promise<void> {
    for (const task of this.tasks) await task.destroy();
    this.tasks.length = 0;
  }

  /** Queues the runs of one tick; `scheduledFor` is the tick's time, the same in every scheduler. */
  async tick(job: JobConfig, scheduledFor: Date): Promise<TickResult> {
    const at = new Date(Math.floor(scheduledFor.getTime() / 1000) * 1000);
    const result: TickResult = { queued: 0, skipped: 0 };
    for (let queryIndex = 0; queryIndex < job.queries.length; queryIndex++) {
      const runKey = tickRunKey(job.name, queryIndex, at);
      const log = this.logger.child({ job: job.name, queryIndex, runKey });
      try {
        if (job.overlap === 'skip' && (await this.running.anotherIsRunning(job.name, queryIndex, runKey))) {
          log.warn('previous run of this query is still running; tick skipped');
          result.skipped++;
          continue;
        }
        await this.queues.sync.add('sync', { job: job.name, queryIndex, runKey, scheduledFor: at.toISOString() }, { jobId: runKey });
        result.queued++;
      } catch (error) {
        log.error({ err: { message: (error as Error).message } }, 'could not queue the tick');
      }
    }
    return result;
  }

  private async publishSchedules(): Promise<void> {
    const wanted = new Map(this.config.jobs.filter((job) => job.schedule).map((job) => [job.name, JSON.stringify(job.schedule)]));
    const existing = await this.redis.hkeys(this.schedulesKey);
    const stale = existing.filter((name) => !wanted.has(name));
    if (stale.length > 0) {
      await this.redis.hdel(this.schedulesKey, ...stale);
      this.logger.info({ removed: stale }, 'removed schedules no longer in the config');
    }
    // BullMQ job schedulers are not used; any left by other tools on this queue would fire duplicate runs.
    for (const scheduler of await this.queues.sync.getJobSchedulers()) {
      if (scheduler.key) await this.queues.sync.removeJobScheduler(scheduler.key);
    }
    if (wanted.size > 0) await this.redis.hset(this.schedulesKey, Object.fromEntries(wanted));
  }
}
