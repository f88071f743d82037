import { z } from 'zod';
import { isIP } from 'node:net';
import { count, durationMs, integer } from '../bounds.js';

/** A DNS name: dot-separated labels of letters, digits and inner "-", at most 253 characters. */
const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;

const keepJobsSchema = z
  .strictObject({
    ageS: count(1).meta({ description: 'Seconds a finished job is kept.', examples: [86_400] }),
    count: count(1).meta({ description: 'How many finished jobs are kept.', examples: [100] }),
  })
  .meta({ id: 'keepJobs', description: 'How long BullMQ keeps finished jobs in Redis: the newer of `ageS` seconds or the last `count`.' });

export const workerSchema = z
  .strictObject({
    concurrency: count(1)
      .describe(
        "Runs at once in each worker process. Unless a source's `connections` says otherwise, the process may keep a keep-alive connection to a source for each request its runs can have in flight, 3 a run (the page in hand and two ahead): how fast a source may be asked is its `rateLimit`'s to say.",
      )
      .default(2),
    attempts: count(1).describe('Attempts of a run before it fails for good; each resumes from its checkpoint.').default(3),
    backoffMs: durationMs(0).meta({ description: "The wait before a failed run's next attempt, in ms; doubled each attempt.", examples: [30_000] }).default(10_000),
    // BullMQ needs no order between the two: the check every stalledIntervalMs finds expired locks.
    lockDurationMs: durationMs(1).meta({ description: "BullMQ's lock, in ms: a worker that stops renewing it for this long is presumed dead, and its run is taken up again.", examples: [60_000] }).default(30_000),
    stalledIntervalMs: durationMs(1).meta({ description: 'How often, in ms, BullMQ looks for runs whose lock expired.', examples: [60_000] }).default(30_000),
    // Counted apart from attempts: a crashed run resumes from its checkpoint and has failed nothing.
    maxCrashes: count(0).meta({ description: "Crashes of a run's worker (a lost lock: killed, out of memory, a deploy) before the run fails for good.", examples: [10] }).default(50),
    databaseOutageMs: durationMs(0).meta({ description: 'How long a Postgres outage (down or restarting) is waited out, in ms, at each step of a run, before it fails the attempt.', examples: [600_000] }).default(180_000),
    reconcileIntervalMs: durationMs(0)
      .meta({ description: 'How often, in ms, each worker looks for unfinished runs whose queue job is gone (a Redis that lost its data) and queues them again, to resume from their checkpoint; 0 turns it off.', examples: [0] })
      .default(60_000),
    reconcileAfterMs: durationMs(1)
      .meta({ description: 'How long, in ms, such a run must have stored nothing first: longer than a live run may go quiet (request retries, rate-limit waits, a database outage).', examples: [600_000] })
      .default(300_000),
    reconcileWithinMs: durationMs(1).meta({ description: 'Runs quiet for longer than this, in ms, are left alone: rows left unfinished long ago are not the work of a lost queue.', examples: [604_800_000] }).default(86_400_000),
    drainTimeoutMs: durationMs(1).meta({ description: 'On SIGTERM, how long to wait, in ms, for the pages in hand to be stored before exiting anyway.', examples: [60_000] }).default(30_000),
    keepCompleted: keepJobsSchema.describe('How long BullMQ keeps completed jobs.').default({ ageS: 7 * 86_400, count: 1_000 }),
    keepFailed: keepJobsSchema.describe('How long BullMQ keeps failed jobs.').default({ ageS: 30 * 86_400, count: 5_000 }),
    prefix: z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/, 'must be letters, digits, "_" or "-"')
      .describe('Prefix of every Redis key (BullMQ queues, rate limits, schedules): lets environments share a Redis.')
      .default('feedsync'),
    eventsMaxLen: count(1).meta({ description: "Approximate cap of each queue's event stream in Redis.", examples: [1_000] }).default(10_000),
    // Left out of the file, both come from FEEDSYNC_HTTP_PORT / FEEDSYNC_HTTP_HOST (see environmentDefaults).
    httpPort: integer(0, 65_535).meta({ description: 'Port of `/metrics`, `/healthz` and `/readyz` (0: any free port). Left out, `FEEDSYNC_HTTP_PORT` if set.', examples: [9465] }).default(9464),
    httpHost: z
      .string()
      .min(1, 'must name a host or address (empty would listen on every interface)')
      .refine((host) => host === '' || isIP(host) !== 0 || HOST_NAME.test(host), 'must be an IP address (127.0.0.1, ::1, 0.0.0.0) or a host name (localhost, letters, digits, "-" and dots)')
      .meta({ description: 'Address the HTTP port listens on. Left out, `FEEDSYNC_HTTP_HOST` if set (the Docker image sets `0.0.0.0`).', examples: ['0.0.0.0'] })
      .default('127.0.0.1'),
    dashboard: z.boolean().meta({ description: 'Serve the bull-board dashboard at `/admin/queues`, behind basic auth from `DASHBOARD_USER` / `DASHBOARD_PASSWORD` (both required).', examples: [true] }).default(false),
  })
  .meta({ id: 'worker', description: 'The worker processes: how many runs each takes at once, retries and crash recovery, Redis keys, and their HTTP port.' });

export type WorkerConfig = z.output<typeof workerSchema>;
