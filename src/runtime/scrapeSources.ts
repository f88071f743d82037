import type { Config } from '../config/schema.js';
import { dueFiring } from '../history/jobSchedules.js';
import type { Queues } from '../jobs/queues.js';
import type { JobTickFigures, ScrapeSources } from '../observability/FeedsyncMetrics.js';
import { noticeCounts } from '../storage/notices/noticeQueries.js';
import { runIdleness } from '../storage/runs/runIdleness.js';
import { lastEndedTicks } from '../storage/ticks/lastEndedTicks.js';
import type { Runtime } from './openRuntime.js';

const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed', 'completed', 'prioritized', 'waiting-children'] as const;

/**
 * What a worker's metrics read when Prometheus scrapes: the queues from Redis, the rest from
 * Postgres once the runtime is open (`runtime()`; before, nothing). `startedAt` bounds the firings
 * a job never ticked on schedule is held to, so that a job new to the config is not reported late
 * before its first firing.
 */
export function scrapeSources(config: Config, queues: Queues, runtime: () => Runtime | undefined, startedAt = new Date()): ScrapeSources {
  const pool = () => runtime()?.storage.pool;
  return {
    queueCounts: async () => ({ sync: await queues.sync.getJobCounts(...QUEUE_STATES), notify: await queues.notify.getJobCounts(...QUEUE_STATES) }),
    queueWorkers: async () => ({ sync: await queues.sync.getWorkersCount(), notify: await queues.notify.getWorkersCount() }),
    noticeCounts: async () => {
      const opened = runtime();
      return opened ? noticeCounts(opened.storage.db) : {};
    },
    jobTicks: async () => {
      const opened = pool();
      if (!opened) return [];
      const now = new Date();
      const ticks = new Map((await lastEndedTicks(opened, config.jobs.map((job) => job.name))).map((tick) => [tick.job, tick]));
      return config.jobs.map((job): JobTickFigures => {
        const { status, lastScheduledFor } = ticks.get(job.name) ?? { status: undefined, lastScheduledFor: undefined };
        if (!job.schedule) return { job: job.name, lastStatus: status };
        const due = dueFiring(job.schedule, now);
        const dueAt = due && (lastScheduledFor !== undefined || due.getTime() >= startedAt.getTime()) ? due : undefined;
        return { job: job.name, lastStatus: status, schedule: { lastScheduledFor, dueAt } };
      });
    },
    idleRuns: async () => {
      const opened = pool();
      return opened ? (await runIdleness(opened)).map(({ job, status, idleSeconds }) => ({ job, state: status, idleSeconds })) : [];
    },
    readFailed: (gauges, error) => runtime()?.logger.warn({ gauges, err: { message: error.message } }, 'metrics: a reading failed; its gauges are left out of this scrape'),
  };
}

/** Each rate-limited source's limit as a sustained rate, in requests per second: the tightest of its windows. */
export function sustainedRateLimits(config: Config): Record<string, number> {
  const limits: Record<string, number> = {};
  for (const [source, settings] of Object.entries(config.sources)) {
    if (settings.rateLimit) limits[source] = Math.min(...settings.rateLimit.map((window) => window.max / (window.durationMs / 1000)));
  }
  return limits;
}
