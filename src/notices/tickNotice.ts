import type { NoticeToQueue } from '../storage/runs/runState.js';
import type { TickOutcome } from '../storage/ticks/tickState.js';
import { noticeIdFor } from './completionNotice.js';

export type TickNoticeType = 'job.succeeded' | 'job.partial' | 'job.failed';

/** A job tick's notice: one when every run of the tick has ended, in Standard Webhooks' `{type, timestamp, data}`. */
export interface TickNotice {
  type: TickNoticeType;
  timestamp: string;
  data: {
    tickId: string;
    job: string;
    /** `schedule`, `enqueue` or `run`. */
    trigger: string;
    scheduledFor: string | null;
    /**
     * Runs by how they ended; `partial`: ended with part of their data (see their own notices);
     * `skipped`: the previous run of their query had not ended (overlap: skip).
     */
    runs: { total: number; succeeded: number; partial: number; failed: number; skipped: number };
    /** Summed over the tick's runs; `skipped`: records kept in dead_letters rather than stored (records.onInvalid: skip). */
    records: { new: number; updated: number; unchanged: number; skipped: number };
    started: string;
    finished: string;
    durationMs: number;
    /** The first failed runs (see LISTED_FAILED_RUNS), oldest first; `failedRunsNotListed` counts the rest. */
    failedRuns: { runId: string; query: number; value: string | null; q: string | null; error: { kind: string | null; message: string } }[];
    failedRunsNotListed: number;
    /** Why the tick could not make its runs, if so. */
    error: string | null;
  };
}

export function tickNotice(tick: TickOutcome): NoticeToQueue {
  const finished = tick.finishedAt ?? new Date();
  const type: TickNoticeType = tick.status === 'succeeded' ? 'job.succeeded' : tick.status === 'partial' ? 'job.partial' : 'job.failed';
  const { succeeded, partial, failed, skipped, total } = tick.runs;
  const payload: TickNotice = {
    type,
    timestamp: finished.toISOString(),
    data: {
      tickId: tick.id,
      job: tick.job,
      trigger: tick.trigger,
      scheduledFor: tick.scheduledFor?.toISOString() ?? null,
      runs: { total, succeeded, partial, failed, skipped },
      records: tick.records,
      started: tick.startedAt.toISOString(),
      finished: finished.toISOString(),
      durationMs: finished.getTime() - tick.startedAt.getTime(),
      failedRuns: tick.failedRuns.map((run) => ({
        runId: run.runId,
        query: run.queryIndex,
        value: run.value,
        q: run.q,
        error: { kind: run.errorKind, message: run.error ?? 'unknown error' },
      })),
      failedRunsNotListed: tick.failedRunsNotListed,
      error: tick.error,
    },
  };
  return { id: noticeIdFor(tick.id), type, body: JSON.stringify(payload) };
}
