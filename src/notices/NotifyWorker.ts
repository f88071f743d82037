import { Worker } from 'bullmq';
import type { RedisClient } from '../redis/RedisTarget.js';
import { noAttempts, type AttemptCounts, type NoticeOutbox } from './NoticeOutbox.js';
import type { Logger } from '../observability/logger.js';
import { queueOutboxDrain, type NotifyJobData, type Queues } from '../jobs/queues.js';

/** How often a drain is queued regardless (a signal lost in a crash between commit and enqueue, or a hand-over not yet leased; a lease expired). */
const SWEEP_INTERVAL_MS = 30_000;
const OUTBOX_RETRY_MS = 5_000;
/** A drain accepts handed-over notices for this long at most, then passes them to the queue: no job stays active for hours. */
const HAND_OVER_WINDOW_MS = 10_000;

/**
 * Works the notify queue: each job drains the outbox, delivering every due notice in batches
 * (and, while it does, the notices this process's runs hand over through handToRunningDrain), then queues a
 * wake-up for the earliest notice still pending (a retry). The notice rows, not Redis, are the
 * truth: a lost job costs at most a sweep interval.
 */
export class NotifyWorker {
  private readonly worker: Worker<NotifyJobData>;
  private sweeper: NodeJS.Timeout | undefined;
  /** Drains in their delivery loop, where a hand-over is leased. */
  private drainsDelivering = 0;
  /** Set by handToRunningDrain: a drain in its loop leases once more before it ends. */
  private handedOver = false;
  /** While closing, runs queue their drains: close waits for no stream of hand-overs. */
  private closing = false;

  constructor(
    private readonly outbox: NoticeOutbox,
    connection: RedisClient,
    private readonly queues: Queues,
    private readonly logger: Logger,
    private readonly sweepIntervalMs = SWEEP_INTERVAL_MS,
  ) {
    // Two at once: the drain asked for now, and a retry wake-up; leases keep them apart.
    this.worker = new Worker<NotifyJobData>(queues.names.notify, () => this.drain(), { connection, prefix: queues.prefix, concurrency: 2, autorun: false });
    // The message only: a Redis error carries the command it failed, a refused AUTH its password.
    this.worker.on('error', (error) => logger.error({ err: { name: error.name, message: error.message } }, 'notify worker error'));
  }

  run(): Promise<void> {
    void this.sweep();
    this.sweeper = setInterval(() => void this.sweep(), this.sweepIntervalMs);
    return this.worker.run();
  }

  waitUntilReady(): Promise<unknown> {
    return this.worker.waitUntilReady();
  }

  /**
   * Offers a notice just committed to a drain delivering in this process: true when one will look
   * for due notices again after this call (or, if its lease fails or its time is up, queue a drain
   * for them), so the caller need not queue one. Under a steady stream of short runs, one drain
   * then delivers them all, without a queue round trip per run.
   */
  handToRunningDrain(): boolean {
    if (this.drainsDelivering === 0 || this.closing) return false;
    this.handedOver = true;
    return true;
  }

  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.sweeper);
    await this.worker.close();
  }

  /** Queues a drain; failures are logged and left to the next sweep. */
  async sweep(): Promise<void> {
    try {
      await queueOutboxDrain(this.queues);
    } catch (error) {
      this.logger.warn({ err: { message: (error as Error).message } }, 'outbox sweep failed; will try again');
    }
  }

  /** One drain; returns how many attempts ended in each state (kept with the job until it is removed). */
  private async drain(): Promise<AttemptCounts | undefined> {
    let waitMs: number | undefined;
    let attempts: AttemptCounts | undefined;
    try {
      attempts = await this.deliverWhileHandedOver();
      waitMs = await this.outbox.nextDueInMs();
    } catch (error) {
      // The outbox is unreachable (Postgres restarting): look again shortly.
      this.logger.warn({ err: { message: (error as Error).message } }, 'notice delivery deferred: outbox unreachable');
      waitMs = OUTBOX_RETRY_MS;
    }
    if (this.handedOver && this.drainsDelivering === 0) {
      // Notices handed over but not leased since (a failed lease, or the time limit) go to a drain of the queue.
      this.handedOver = false;
      await queueOutboxDrain(this.queues);
    }
    if (waitMs !== undefined) await queueOutboxDrain(this.queues, waitMs);
    return attempts;
  }

  /** Delivers what is due, and again for as long as notices are handed over (up to HAND_OVER_WINDOW_MS). */
  private async deliverWhileHandedOver(): Promise<AttemptCounts> {
    const attempts = noAttempts();
    const endBy = performance.now() + HAND_OVER_WINDOW_MS;
    this.drainsDelivering += 1;
    try {
      do {
        // Whichever drain clears the flag leases once more after the notices handed over were committed.
        const asked = this.handedOver;
        this.handedOver = false;
        try {
          await this.outbox.deliverDue(attempts);
        } catch (error) {
          // Those notices are still to deliver: the flag goes back, for another drain or for drain's hand-off.
          if (asked) this.handedOver = true;
          throw error;
        }
      } while (this.handedOver && performance.now() < endBy);
    } finally {
      this.drainsDelivering -= 1;
    }
    return attempts;
  }
}
