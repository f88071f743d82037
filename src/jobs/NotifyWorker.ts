import { DelayedError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { NoticeOutbox } from '../notices/NoticeOutbox.js';
import type { Logger } from '../observability/logger.js';
import { NOTIFY_QUEUE, queueNotice, type NotifyJobData, type Queues } from './queues.js';

/** How often the outbox is swept for notices whose queue job was lost (crash between commit and enqueue). */
const SWEEP_INTERVAL_MS = 30_000;
const OUTBOX_RETRY_MS = 5_000;

/**
 * Delivers completion notices from the outbox, one job per notice. A failed attempt re-delays the
 * same job until the notice's next attempt time; the notice row, not Redis, is the truth.
 */
export class NotifyWorker {
  private readonly worker: Worker<NotifyJobData>;
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly outbox: NoticeOutbox,
    connection: Redis,
    private readonly queues: Queues,
    private readonly logger: Logger,
    private readonly sweepIntervalMs = SWEEP_INTERVAL_MS,
  ) {
    this.worker = new Worker<NotifyJobData>(NOTIFY_QUEUE, (job, token) => this.process(job, token), { connection, prefix: queues.prefix, concurrency: 4, autorun: false });
    this.worker.on('error', (error) => logger.error({ err: error }, 'notify worker error'));
  }

  run(): Promise<void> {
    void this.sweep();
    this.sweeper = setInterval(() => void this.sweep(), this.sweepIntervalMs);
    return this.worker.run();
  }

  waitUntilReady(): Promise<unknown> {
    return this.worker.waitUntilReady();
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await this.worker.close();
  }

  /** Queues every pending notice that is due; job ids dedupe those already queued. */
  async sweep(): Promise<number> {
    try {
      const due = await this.outbox.due();
      for (const id of due) await queueNotice(this.queues, id);
      return due.length;
    } catch (error) {
      this.logger.warn({ err: { message: (error as Error).message } }, 'outbox sweep failed; will try again');
      return 0;
    }
  }

  private async process(job: Job<NotifyJobData>, token: string | undefined): Promise<string> {
    let waitMs: number | undefined;
    try {
      const result = await this.outbox.deliver(job.data.noticeId);
      if (result && result.state !== 'pending') return result.state;
      waitMs = await this.outbox.nextDueInMs(job.data.noticeId);
      if (waitMs === undefined) return 'not pending';
    } catch (error) {
      // The outbox is unreachable (Postgres restarting): keep the job and look again shortly.
      this.logger.warn({ noticeId: job.data.noticeId, err: { message: (error as Error).message } }, 'notice delivery deferred: outbox unreachable');
      waitMs = OUTBOX_RETRY_MS;
    }
    await job.moveToDelayed(Date.now() + waitMs, token);
    throw new DelayedError();
  }
}
