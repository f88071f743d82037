import type { Logger } from '../observability/logger.js';

/**
 * BullMQ's words for a job whose keys or lock are gone from Redis under a worker that holds it
 * (Redis lost its data, or the job stalled to another worker): its lock cannot be renewed, and
 * it cannot be moved on when its run ends. The run's row is what counts (the reconciler queues a
 * run whose job is gone again), so this is a warning.
 */
// The id runs to the ". " BullMQ ends it with, or to the end: a run key may hold dots (a fan-out value).
const LOST_JOB = /^(?:could not renew lock for job|Missing key for job|Missing lock for job) (\S+?)(?:\.(?:\s|$)|\s|$)/;

/** Job ids remembered as warned about at most; past it the memory starts again. */
const REMEMBERED_JOBS = 1_000;

/**
 * Tells a lost job once per take-up, at warn: BullMQ reports the lost lock again at every
 * renewal (each half lock period) and the missing key as the run ends.
 */
export class LostJobs {
  private readonly warned = new Set<string>();

  constructor(private readonly logger: Logger) {}

  /** Whether this worker error is a lost job's (warned about the first time); false for any other. */
  handled(error: Error): boolean {
    const jobId = LOST_JOB.exec(error.message)?.[1];
    if (jobId === undefined) return false;
    if (this.warned.has(jobId)) return true;
    if (this.warned.size >= REMEMBERED_JOBS) this.warned.clear();
    this.warned.add(jobId);
    this.logger.warn({ runKey: jobId, err: { message: error.message } }, "run's queue job lost from Redis; the run's row carries on, and the reconciler queues it again if need be");
    return true;
  }

  /** A job taken up (again): a loss of it from now on is news. */
  takenUp(jobId: string | undefined): void {
    if (jobId !== undefined) this.warned.delete(jobId);
  }
}
