import { createHash } from 'node:crypto';

/**
 * A run key makes a run happen once and says who asked for it: a schedule tick or `enqueue`
 * (runs of the queue, each with a BullMQ job of the same id), or `feedsync run` in its own
 * process (no queue job). A tick key does the same for a job's tick.
 */

/** A fan-out value in a key: encoded, so that it cannot be mistaken for the key's own separators (BullMQ refuses ":" in job ids). */
function valuePart(value: string | undefined): string {
  return value === undefined ? '' : `/${encodeURIComponent(value)}`;
}

/** The run key of a scheduled tick: one run per (job, query, value, scheduled time), whoever fires it. */
export function tickRunKey(job: string, queryIndex: number, scheduledFor: Date, value?: string): string {
  return `tick/${job}/${queryIndex}/${scheduledFor.getTime()}${valuePart(value)}`;
}

/** The run key of a run queued by hand (`enqueue`, the demo). */
export function queuedRunKey(job: string, queryIndex: number, runId: string): string {
  return `manual/${job}/${queryIndex}/${runId}`;
}

/** The run key of a run that `feedsync run` performs in its own process. */
export function inProcessRunKey(job: string, queryIndex: number, runId: string): string {
  return `run/${job}/${queryIndex}/${runId}`;
}

/** The tick key of a schedule's firing: one tick per (job, scheduled time), whoever fires it. */
export function scheduledTickKey(job: string, scheduledFor: Date): string {
  return `tick/${job}/${scheduledFor.getTime()}`;
}

/** The tick key of an `enqueue` or a `feedsync run`: one per request. */
export function manualTickKey(trigger: 'enqueue' | 'run', job: string, tickId: string): string {
  return `${trigger === 'enqueue' ? 'manual' : 'run'}/${job}/${tickId}`;
}

/** SQL `like` patterns of the run keys that have a queue job: only those runs can lose it. */
export const QUEUED_RUN_KEY_PATTERNS = ['tick/%', 'manual/%'];

/** SQL `like` patterns of the run keys of runs that `feedsync run` performs in its own process. */
export const IN_PROCESS_RUN_KEY_PATTERNS = ['run/%'];

/** A replay tick's key up to its generation: one replay of a selection runs at a time, and a crashed one is found by it. */
export function replayTickKeyPrefix(job: string, selection: string): string {
  return `replay/${job}/${createHash('sha256').update(selection).digest('hex').slice(0, 16)}/`;
}

/** A replay run's key: its tick's, and the query it replays. */
export function replayRunKey(job: string, queryIndex: number, tickId: string): string {
  return `replay/${job}/${queryIndex}/${tickId}`;
}
