import { Queue, type ConnectionOptions, type JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';
import type { WorkerConfig } from '../config/worker/workerSchema.js';

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
  /** The job tick the run belongs to. */
  tickId?: string;
  /** A fan-out query's value for this run. */
  value?: string;
}

/** The notify queue's one kind of job: deliver every notice of the outbox that is due. */
export type NotifyJobData = Record<string, never>;

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
  // Delivery retries follow the outbox's own schedule (delayed drains), not BullMQ attempts. A
  // finished drain is removed; the outbox rows keep every attempt.
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

/**
 * Asks the notify queue to deliver what is due in the outbox: now, or after `delayMs` (a retry's
 * wake-up). Notices are not jobs of their own: a drain delivers them in batches.
 *
 * Drains asked for now share one deduplication id, kept only while one waits: asking again while
 * a drain is active queues exactly one more after it (BullMQ's keepLastIfActive), so a notice
 * committed during a drain is never missed and drains never run side by side. Wake-ups get one
 * job per second they fall in, however many notices are due then.
 */
export async function queueOutboxDrain(queues: Pick<Queues, 'notify'>, delayMs = 0): Promise<void> {
  if (delayMs <= 0) {
    await queues.notify.add('drain', {}, { deduplication: { id: 'drain', keepLastIfActive: true } });
    return;
  }
  // The end of the second [s, s + 1000) the wake-up falls in: never before it is due.
  const at = (Math.floor((Date.now() + delayMs) / 1000) + 1) * 1000;
  await queues.notify.add('drain', {}, { jobId: `drain-at-${at}`, delay: Math.max(0, at - Date.now()) });
}
