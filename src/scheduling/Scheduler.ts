import cron, { type ScheduledTask } from 'node-cron';
import type { RedisClient } from '../redis/RedisTarget.js';
import type { Config, JobConfig } from '../config/schema.js';
import { launchTick } from '../jobs/launchTick.js';
import type { Queues } from '../jobs/queues.js';
import type { Logger } from '../observability/logger.js';
import { envelopeRetentionOf, type PageRetention } from '../storage/pages/PageRetention.js';
import type { RunStore } from '../storage/runStore.js';


const MISSED_TICK_TOLERANCE_MS = 60_000;
/** When stored pages are pruned, once a day, if any job has a retention policy (several schedulers prune alike, harmlessly). */
const DAILY_PRUNE_CRON = '30 3 * * *';

export interface TickResult {
  /** The tick's id; undefined when it had been started already, by another scheduler. */
  tickId: string | undefined;
  queued: number;
  skipped: number;
}

/**
 * Fires each configured job's cron schedule and starts a tick: one sync job per query (per value
 * of a fan-out query). The tick key, the run keys and the BullMQ job ids all derive from (job,
 * query, value, scheduled time), so two schedulers, a crash-looping one or a rolling restart still
 * yield one tick and one run per query and value.
 */
export class Scheduler {
  private readonly tasks: ScheduledTask[] = [];
  /** Redis hash of the schedules in force: job name → {cron, timezone}. */
  readonly schedulesKey: string;

  constructor(
    private readonly config: Config,
    private readonly queues: Queues,
    /** Where ticks and their runs are opened, fan-out values read and overlapping runs found. */
    private readonly store: Pick<RunStore, 'ticks' | 'fanOut' | 'running'>,
    private readonly redis: RedisClient,
    private readonly logger: Logger,
    /** Applies the jobs' retention of stored pages daily; absent, nothing is pruned. */
    private readonly retention?: PageRetention,
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
    const schedules = this.tasks.length;
    const retains = this.config.jobs.some((job) => Object.keys(envelopeRetentionOf(this.config, job)).length > 0);
    if (this.retention && retains) this.tasks.push(cron.schedule(DAILY_PRUNE_CRON, () => this.prune(), { timezone: 'UTC', name: 'feedsync-prune' }));
    this.logger.info({ schedules, dailyPrune: this.tasks.length > schedules }, 'scheduler started');
  }

  /** Prunes stored pages by the jobs' retention policies. Never throws: a failure is logged. */
  async prune(): Promise<void> {
    try {
      const pruned = await this.retention!.prune(this.config);
      this.logger.info({ envelopes: pruned.envelopes, bodies: pruned.bodies, bytes: pruned.bytes }, 'stored pages pruned');
    } catch (error) {
      this.logger.error({ err: error }, 'pruning stored pages failed; tried again tomorrow');
    }
  }

  async stop(): Promise<void> {
    for (const task of this.tasks) await task.destroy();
    this.tasks.length = 0;
  }

  /** Starts one tick; `scheduledFor` is the tick's time, the same in every scheduler. Never throws: a failure is logged. */
  async tick(job: JobConfig, scheduledFor: Date): Promise<TickResult> {
    const at = new Date(Math.floor(scheduledFor.getTime() / 1000) * 1000);
    const log = this.logger.child({ job: job.name, scheduledFor: at.toISOString() });
    try {
      const opened = await launchTick(this.config, this.store, this.queues, job, { trigger: 'schedule', scheduledFor: at });
      if (!opened) return { tickId: undefined, queued: 0, skipped: 0 };
      const { tick, runs } = opened;
      if (tick.runs.skipped > 0) log.warn({ skipped: tick.runs.skipped }, 'previous runs of these queries are still running; left out of this tick');
      if (tick.error) log.error({ tickId: tick.id, err: { message: tick.error } }, 'tick could not make its runs');
      return { tickId: tick.id, queued: runs.length, skipped: tick.runs.skipped };
    } catch (error) {
      log.error({ err: { message: (error as Error).message } }, 'could not start the tick');
      return { tickId: undefined, queued: 0, skipped: 0 };
    }
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
