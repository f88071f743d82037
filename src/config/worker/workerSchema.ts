import { z } from 'zod';
import { isIP } from 'node:net';
import { count, durationMs, integer } from '../bounds.js';

/** A DNS name: dot-separated labels of letters, digits and inner "-", at most 253 characters. */
const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;

/** How long BullMQ keeps finished jobs: the newer of `ageS` seconds or the last `count`. */
const keepJobsSchema = z.strictObject({ ageS: count(1), count: count(1) });

export const workerSchema = z.strictObject({
  /** Sync jobs run at once in one worker process. */
  concurrency: count(1).default(2),
  /** Attempts of a sync run before it fails for good; each resumes from the checkpoint. */
  attempts: count(1).default(3),
  /** First retry delay of a failed run; doubles each attempt. */
  backoffMs: durationMs(0).default(10_000),
  /**
   * BullMQ lock: a worker that stops renewing it for this long is presumed dead and its job stalls.
   * BullMQ needs no order between the two: the check every stalledIntervalMs finds expired locks.
   */
  lockDurationMs: durationMs(1).default(30_000),
  stalledIntervalMs: durationMs(1).default(30_000),
  /**
   * Crashes of a run's worker (a lost lock: killed, OOM, a deploy) before the run fails for good.
   * Counted apart from attempts: a crashed run resumes from its checkpoint and has failed nothing.
   */
  maxCrashes: count(0).default(50),
  /** How long a database outage (Postgres down or restarting) is waited out, at each step of a run, before it fails the attempt. */
  databaseOutageMs: durationMs(0).default(180_000),
  /**
   * How often each worker process looks for unfinished runs whose queue job is gone (a Redis that
   * lost its data) and queues them again, to resume from their checkpoint (0: never).
   */
  reconcileIntervalMs: durationMs(0).default(60_000),
  /**
   * How long an unfinished run must have stored nothing before the reconciler looks for its job:
   * longer than a live run may go quiet (request retries, rate-limit waits, a database outage).
   */
  reconcileAfterMs: durationMs(1).default(300_000),
  /** Runs quiet for longer than this are not looked at: rows left unfinished long ago are not the work of a lost queue. */
  reconcileWithinMs: durationMs(1).default(86_400_000),
  /** On SIGTERM, how long to wait for current pages to be stored before exiting anyway. */
  drainTimeoutMs: durationMs(1).default(30_000),
  keepCompleted: keepJobsSchema.default({ ageS: 7 * 86_400, count: 1_000 }),
  keepFailed: keepJobsSchema.default({ ageS: 30 * 86_400, count: 5_000 }),
  /** Prefix of every Redis key (BullMQ queues, rate limits, schedules): lets environments share a Redis. */
  prefix: z.string().regex(/^[A-Za-z0-9_-]+$/, 'must be letters, digits, "_" or "-"').default('feedsync'),
  /** Approximate cap of each queue's event stream. */
  eventsMaxLen: count(1).default(10_000),
  /** Port of /metrics, /healthz, /readyz (0: any free port). */
  // Left out of the file, both come from FEEDSYNC_HTTP_PORT / FEEDSYNC_HTTP_HOST (see environmentDefaults).
  httpPort: integer(0, 65_535).default(9464),
  httpHost: z
    .string()
    .min(1, 'must name a host or address (empty would listen on every interface)')
    .refine((host) => host === '' || isIP(host) !== 0 || HOST_NAME.test(host), 'must be an IP address (127.0.0.1, ::1, 0.0.0.0) or a host name (localhost, letters, digits, "-" and dots)')
    .default('127.0.0.1'),
  /** Serve the bull-board dashboard at /admin/queues (basic auth from DASHBOARD_USER / DASHBOARD_PASSWORD). */
  dashboard: z.boolean().default(false),
});

export type WorkerConfig = z.output<typeof workerSchema>;
