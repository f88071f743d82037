import { traceparentOf } from '../observability/tracing/spans.js';
import type { NoticeToQueue, RunState } from '../storage/runs/runState.js';

export type NoticeType = 'sync.succeeded' | 'sync.partial' | 'sync.failed';

/** The notice body posted to the webhook: Standard Webhooks' `{type, timestamp, data}`. */
export interface CompletionNotice {
  type: NoticeType;
  timestamp: string;
  data: {
    runId: string;
    job: string;
    source: string;
    query: { index: number; q: string | null; params: Record<string, string> };
    attempt: number;
    /** Times the run's worker crashed mid-run; a crash is not a failed attempt. */
    crashes: number;
    pages: number;
    /** `skipped`: kept in dead_letters; `collapsed`: left out as duplicates of a later key in their page; `filtered`: left out by records.skip; `deleted`: marked deleted by a full_refresh run. */
    records: { new: number; updated: number; unchanged: number; skipped: number; collapsed: number; filtered: number; deleted: number };
    /** NUL characters removed from record payloads (jsonb cannot hold U+0000). */
    nulCharsRemoved: number;
    started: string;
    finished: string;
    durationMs: number;
    /** Why it failed, or for `sync.partial` why it did not get everything (kind `max_pages`, `window_stuck` or `short_of_total`); null when it succeeded. */
    error: { kind: string | null; message: string } | null;
    /** What the upstream said beside the data it sent (Etherscan's throttled key), each once; empty for none. */
    warnings: string[];
  };
}

/** The `webhook-id` of a run's or a tick's notice (both ids are UUIDs): one each, the same on every delivery attempt. */
export function noticeIdFor(runOrTickId: string): string {
  return `msg_${runOrTickId.replaceAll('-', '')}`;
}

export function completionNotice(run: RunState): NoticeToQueue {
  const finished = run.finishedAt ?? new Date();
  const type: NoticeType = run.status === 'succeeded' ? 'sync.succeeded' : run.status === 'partial' ? 'sync.partial' : 'sync.failed';
  const payload: CompletionNotice = {
    type,
    timestamp: finished.toISOString(),
    data: {
      runId: run.id,
      job: run.job,
      source: run.source,
      query: { index: run.queryIndex, q: run.query.q, params: run.query.params },
      attempt: run.attempt,
      crashes: run.crashes,
      pages: run.pages,
      records: { ...run.counts, skipped: run.anomalies.skipped, collapsed: run.anomalies.collapsed, filtered: run.anomalies.filtered, deleted: run.recordsDeleted },
      nulCharsRemoved: run.anomalies.nulsRemoved,
      started: run.startedAt.toISOString(),
      finished: finished.toISOString(),
      durationMs: finished.getTime() - run.startedAt.getTime(),
      error: run.status === 'succeeded' ? null : { kind: run.errorKind, message: run.error ?? 'unknown error' },
      warnings: run.warnings,
    },
  };
  // Made in the run's span: the notice's delivery continues its trace.
  const traceparent = traceparentOf();
  return { id: noticeIdFor(run.id), type, body: JSON.stringify(payload), ...(traceparent ? { traceparent } : {}) };
}
