import type { Logger } from '../observability/logger.js';
import type { FeedsyncMetrics } from '../observability/FeedsyncMetrics.js';
import type { RunStore } from '../storage/runStore.js';
import { isEnded, type NoticeToQueue, type RunOutcome, type RunState } from '../storage/runs/runState.js';
import { CrashedTooOftenError } from '../sync/runFailures.js';

export interface AbandonedRunsOptions {
  store: RunStore;
  logger: Logger;
  metrics: FeedsyncMetrics | undefined;
  /** Makes a run's completion notice; absent when no webhook is configured. */
  noticeFor: ((run: RunState) => NoticeToQueue) | undefined;
  /** After a notice is committed: sees that a drain delivers it. */
  requestDrain: () => Promise<void>;
}

/**
 * Closes runs that can no longer go on although their row says they might: their queue job
 * failed for good without the run recording it (crashed too often, Postgres down at the end), or
 * the reconciler found the job gone and the query no longer in the config. The run is recorded
 * as failed with its notice, so that no run stays unfinished and no failure goes unannounced.
 */
export class AbandonedRuns {
  constructor(private readonly options: AbandonedRunsOptions) {}

  /**
   * Records the run with this key as failed with the outcome `why` gives, unless it has ended
   * already; returns the run as closed, or undefined if there was nothing to close. Never throws:
   * a failure is logged, and the run is left for the reconciler's next look.
   */
  async close(runKey: string, why: (run: RunState) => RunOutcome): Promise<RunState | undefined> {
    const { store, logger, noticeFor } = this.options;
    try {
      const run = await store.claims.findByKey(runKey);
      if (!run || isEnded(run.status)) return undefined;
      const outcome = why(run);
      // Fenced on the row as read: of two processes closing one run, one writes it and its notice.
      const closed = await store.finishes.finishIfUnchanged(run, outcome, (ended) => noticeFor?.(ended));
      if (!closed) return undefined;
      if (noticeFor) await this.options.requestDrain();
      this.options.metrics?.runEnded(run.job, 'failed');
      logger.error({ runId: run.id, runKey, err: { kind: outcome.errorKind, message: outcome.error } }, 'run closed as failed: it cannot go on');
      return closed;
    } catch (error) {
      logger.error({ runKey, err: { message: (error as Error).message } }, 'could not close an abandoned run; it stays unfinished for now');
      return undefined;
    }
  }
}

/** BullMQ's reason for failing a job whose worker stopped renewing its lock too many times. */
const STALLED_TOO_OFTEN = /stalled more than allowable limit/;

/** Whether BullMQ failed the job because its worker crashed more often than worker.maxCrashes allows. */
export function stalledTooOften(error: Error): boolean {
  return STALLED_TOO_OFTEN.test(error.message);
}

/**
 * Why BullMQ failed a run's job for good without the run recording it: its worker crashed more
 * often than worker.maxCrashes allows (the crash BullMQ saw last was never claimed after, so the
 * row has not counted it), or the run's own last failure could not be recorded.
 */
export function abandonedOutcome(run: RunState, error: Error, maxCrashes: number): RunOutcome {
  if (stalledTooOften(error)) {
    const { kind, message } = new CrashedTooOftenError(maxCrashes, run.pages);
    return { status: 'failed', errorKind: kind, error: message, crashes: run.crashes + 1 };
  }
  return { status: 'failed', errorKind: run.errorKind ?? 'abandoned', error: run.error ?? error.message };
}
