import { Queue, type ConnectionOptions, type JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';
import type { WorkerConfig } from '../config/schema.js';

/** A command-line producer gives up after this many failed connection attempts, half a second apart. */
const PRODUCER_CONNECT_ATTEMPTS = 6;

export const SYNC_QUEUE = 'sync';
export const NOTIFY_QUEUE = 'notify';

/** One sync run to perform; the BullMQ job id is the run key, so a run is queued once. */
export interface SyncJobData {
  job: string;
  queryIndex: number;
  runKey: string;
  /** Manual runs choose their run id up front, so `enqueue` can print it. */
  runId?: string;
  /** ISO time of the schedule tick, for scheduled runs. */
  scheduledFor?: string;
}

export interface NotifyJobData {
  noticeId: string;
}

/**
 * Workers block on Redis and must retry forever (`maxRetriesPerRequest: null`); producers
 * (CLI, scheduler) fail fast when Redis is down rather than queue commands in memory.
 */
export function redisConnection(url: string, role: 'worker' | 'producer'): Redis {
  const redis = new Redis(
    url,
    role === 'worker'
      ? { maxRetriesPerRequest: null }
      : { maxRetriesPerRequest: 3, connectTimeout: 5_000, retryStrategy: (attempt: number) => (attempt > PRODUCER_CONNECT_ATTEMPTS ? null : 500) },
  );
  // ioredis reconnects by itself; without a listener an 'error' event would crash the process.
  redis.on('error', () => undefined);
  return redis;
}

export function syncJobOptions(worker: WorkerConfig): JobsOptions {
  return {
    attempts: worker.attempts,
    backoff: { type: 'exponential', delay: worker.backoffMs },
    removeOnComplete: { age: worker.keepCompleted.ageS, count: worker.keepCompleted.count },
    removeOnFail: { age: worker.keepFailed.ageS, count: worker.keepFailed.count },
  };
}

export function notifyJobOptions(): JobsOptions {
  // Delivery retries follow the outbox's own schedule (delayed re-runs), not BullMQ attempts. A
  // finished job is removed so that the notice id can be queued again (redeliver, sweeper); the
  // outbox row keeps every attempt.
  return { attempts: 1, removeOnComplete: true, removeOnFail: true };
}

export interface Queues {
  /** BullMQ key prefix, from `worker.prefix`. */
  prefix: string;
  sync: Queue<SyncJobData>;
  notify: Queue<NotifyJobData>;
  close(): Promise<void>;
}

export function openQueues(connection: ConnectionOptions, worker: WorkerConfig): Queues {
  const streams = { events: { maxLen: worker.eventsMaxLen } };
  const prefix = worker.prefix;
  const sync = new Queue<SyncJobData>(SYNC_QUEUE, { connection, prefix, streams, defaultJobOptions: syncJobOptions(worker) });
  const notify = new Queue<NotifyJobData>(NOTIFY_QUEUE, { connection, prefix, streams, defaultJobOptions: notifyJobOptions() });
  sync.on('error', () => undefined);
  notify.on('error', () => undefined);
  return {
    prefix,
    sync,
    notify,
    async close() {
      await Promise.all([sync.close(), notify.close()]);
    },
  };
}

/** Queues a notice for delivery; the notice id as job id keeps one job per notice. */
export async function queueNotice(queues: Pick<Queues, 'notify'>, noticeId: string, delayMs = 0): Promise<void> {
  await queues.notify.add('deliver', { noticeId }, { jobId: noticeId, delay: delayMs });
}
