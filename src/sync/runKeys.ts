/**
 * A run key makes a run happen once and says who asked for it: a schedule tick or `enqueue`
 * (runs of the queue, each with a BullMQ job of the same id), or `feedsync run` in its own
 * process (no queue job).
 */

/** The run key of a scheduled tick: one run per (job, query, scheduled time), whoever fires it. */
export function tickRunKey(job: string, queryIndex: number, scheduledFor: Date): string {
  return `tick/${job}/${queryIndex}/${scheduledFor.getTime()}`;
}

/** The run key of a run queued by hand (`enqueue`, the demo). */
export function queuedRunKey(job: string, queryIndex: number, runId: string): string {
  return `manual/${job}/${queryIndex}/${runId}`;
}

/** The run key of a run that `feedsync run` performs in its own process. */
export function inProcessRunKey(job: string, queryIndex: number, runId: string): string {
  return `run/${job}/${queryIndex}/${runId}`;
}

/** SQL `like` patterns of the run keys that have a queue job: only those runs can lose it. */
export const QUEUED_RUN_KEY_PATTERNS = ['tick/%', 'manual/%'];
