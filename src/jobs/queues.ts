import { Queue, type JobsOptions } from 'bullmq';
import { Cluster } from 'ioredis';
import type { WorkerConfig } from '../config/worker/workerSchema.js';
import type { RedisClient } from '../redis/RedisTarget.js';
import { queueTelemetry } from '../observability/tracing/queueTelemetry.js';

export const SYNC_QUEUE = 'sync';
export const NOTIFY_QUEUE = 'notify';

/** The queues' names in Redis keys (`<prefix>:<name>:…`). */
export interface QueueNames {
  sync: string;
  notify: string;
}

/**
 * On a Redis Cluster each queue's name is a hash tag of its own: BullMQ's scripts touch many keys
 * of one queue, which must share a slot, while the two queues land on different masters. One
 * node keeps the plain names, so an upgrade finds its queues where they were.
 */
export function queueNames(connection: RedisClient): QueueNames {
  return connection instanceof Cluster ? { sync: `{${SYNC_QUEUE}}`, notify: `{${NOTIFY_QUEUE}}` } : { sync: SYNC_QUEUE, notify: NOTIFY_QUEUE };
}

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
  names: QueueNames;
  sync: Queue<SyncJobData>;
  notify: Queue<NotifyJobData>;
  close(): Promise<void>;
}

export function openQueues(connection: RedisClient, worker: WorkerConfig): Queues {
  const streams = { events: { maxLen: worker.eventsMaxLen } };
  const prefix = worker.prefix;
  const names = queueNames(connection);
  const sync = new Queue<SyncJobData>(names.sync, { connection, prefix, streams, defaultJobOptions: syncJobOptions(worker), telemetry: queueTelemetry() });
  const notify = new Queue<NotifyJobData>(names.notify, { connection, prefix, streams, defaultJobOptions: notifyJobOptions() });
  sync.on('error', () => undefined);
  notify.on('error', () => undefined);
  return {
    prefix,
    names,
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
