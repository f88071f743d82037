import cron from 'node-cron';
import { z } from 'zod';
import { retentionSchema } from './retentionSchema.js';
import { count, durationMs, integer, webhookTimeoutMs } from './bounds.js';
import { authSchema } from './authSchema.js';
import { reportInconsistencies, unreachableRetry } from './configConsistency.js';
import { dotPath, dotPathOrWhole } from './dotPath.js';
import { forEachSchema } from './forEachSchema.js';
import { analyticsSchema, kindsSectionSchema, writeModeSchema } from './kindsSchema.js';
import { recordSkipSchema } from './recordSkipSchema.js';
import { responseErrorsSchema, responseSchema } from './responseSchema.js';
import { webhookSecretSchema } from './webhookSecret.js';

const keyPart = z.union([dotPath, z.literal('$query')]);

export const retryPolicySchema = z.strictObject({
  /** Attempts per request, the first included. */
  attempts: integer(1, 20).default(5),
  /** First backoff ceiling; each retry doubles it (full jitter picks 0..ceiling). */
  baseDelayMs: durationMs(0).default(500),
  maxDelayMs: durationMs(0).default(30_000),
  /** A longer Retry-After than this is capped to it. */
  maxRetryAfterMs: durationMs(0).default(60_000),
});

export const rateLimitSchema = z.strictObject({
  /** Requests allowed per `durationMs`, across every worker. */
  max: count(1),
  durationMs: durationMs(1).default(1000),
});

/** Slides a query's lower bound when the upstream caps page × limit (Etherscan's 10,000 window). */
export const windowSchema = z.strictObject({
  maxResults: count(1),
  /** Request parameter holding the lower bound, e.g. `startblock`. */
  param: z.string().min(1),
  /** Record field whose last value becomes the next lower bound, e.g. `blockNumber`. */
  field: dotPath,
});

export const pagingSchema = z.strictObject({
  /** The styles src/paging/paginatorStyles.ts registers (config may not import paging: it is the bottom layer). */
  style: z.enum(['page', 'offset', 'cursor', 'link_header', 'next_url']).default('page'),
  /** Items per page, sent as `limitParam`. */
  limit: integer(1, 10_000).default(50),
  limitParam: z.string().min(1).default('limit'),
  pageParam: z.string().min(1).default('page'),
  firstPage: count(0).default(1),
  offsetParam: z.string().min(1).default('offset'),
  /** For `cursor` style: where the next cursor sits in `data`, and the parameter that carries it. */
  cursorPath: dotPath.optional(),
  cursorParam: z.string().min(1).default('cursor'),
  /** For `next_url` style: where the next page's URL (absolute, or relative to the endpoint) sits in `data`. */
  nextUrlPath: dotPath.optional(),
  maxPages: count(1).default(10_000),
  /**
   * Page and offset styles: ask for the next page as soon as this one is asked for, guessing this
   * one is full and not the last, rather than once it is read. A wrong guess is dropped unused,
   * and ends guessing for the run: at most one request a run, in runs of three pages or more.
   * false: each request waits for the page before it.
   */
  guessNextPage: z.boolean().default(true),
  window: windowSchema.optional(),
  /** Where the result total sits in `data` (for progress): a dot path, or a list tried in order. */
  totalPath: z
    .union([dotPath, z.array(dotPath).min(1)], { error: 'must be a dot path or a list of dot paths' })
    .transform((paths) => (typeof paths === 'string' ? [paths] : paths))
    .default(['total', 'results.total', '@attr.total']),
  /** Stop once as many records were read as the total at `totalPath` says (not with a result window, whose totals change as it slides). */
  stopAtTotal: z.boolean().default(false),
  /** Where the number of pages sits in `data` (Last.fm's `recenttracks.@attr.totalPages`): paging stops after that many. */
  totalPagesPath: dotPath.optional(),
  /** Where a "more pages" flag sits in `data` (`has_more`): paging stops at a page where it is false. */
  hasMorePath: dotPath.optional(),
});

export const recordSelectorSchema = z.strictObject({
  /** Where the items sit in `data` (`.` when the data is the list); an object there is one record. */
  path: dotPathOrWhole,
  /**
   * Record field that identifies it; `$query` stands for the query's `q`. A list makes a
   * composite key (joined with "|"), e.g. `[$query, id]` for items relative to the query.
   */
  key: z.union([keyPart, z.array(keyPart).min(1)]).default('id'),
  /** Kind of record, e.g. `artist`; with the source and key it names one row of `records`. */
  kind: z.string().regex(/^[a-z][a-z0-9_]*$/, 'must be lower case letters, digits and _'),
  /**
   * A record Postgres cannot take (a lone surrogate, a NUL in its key, nesting too deep): `fail`
   * fails its page, naming it; `skip` keeps it in `dead_letters` and stores the rest of the page.
   */
  onInvalid: z.enum(['fail', 'skip']).default('fail'),
  /** Records left out before keys are read (Last.fm's "now playing" track, which has no date): counted per run as filtered. */
  skip: recordSkipSchema.optional(),
});

const paramValue = z.union([z.string(), z.number(), z.boolean()]);
/** Request parameters as sent: numbers and booleans as their text. */
const requestParams = z.record(z.string(), paramValue).transform((params) => Object.fromEntries(Object.entries(params).map(([key, value]) => [key, String(value)])));

export const sourceSchema = z
  .strictObject({
  baseUrl: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
  /** Shorthand for `auth: {type: bearer, value: apiKey}`. */
  apiKey: z.string().min(1, 'must not be empty').optional(),
  auth: authSchema.optional(),
  /** Path of the endpoint under `baseUrl`, e.g. `/2.0/` or `/api`. */
  path: z.string().startsWith('/', 'must start with /'),
  timeoutMs: durationMs(1).default(15_000),
  /** Also the size of the stored envelope, an `int` column. */
  maxResponseBytes: count(1).default(64 * 1024 * 1024),
  retry: retryPolicySchema.prefault({}),
  rateLimit: rateLimitSchema.optional(),
  /** Most connections a worker process keeps to the source (an upstream that caps them per key or address); by default one for each request its runs may have in flight. */
  connections: count(1).optional(),
  paging: pagingSchema.prefault({}),
  response: responseSchema.prefault({}),
  errors: responseErrorsSchema.prefault({}),
  /** Sent with every request of the source (`format: json`); a job's or query's params of the same name win. */
  params: requestParams.default({}),
  retention: retentionSchema.optional(),
})
  .superRefine((source, ctx) => {
    if (source.apiKey === undefined && source.auth === undefined) ctx.addIssue({ code: 'custom', path: ['auth'], message: 'is required: set auth (or apiKey, for a Bearer key); auth: {type: none} for an API without one' });
    if (source.apiKey !== undefined && source.auth !== undefined) ctx.addIssue({ code: 'custom', path: ['apiKey'], message: 'and auth are both set: keep one (apiKey is short for auth: {type: bearer, value: …})' });
  })
  .transform(({ apiKey, auth, ...source }) => ({ ...source, auth: auth ?? { type: 'bearer' as const, value: apiKey! } }));

/**
 * An override of a source's or job's settings: every field optional and without its default, so
 * that what it leaves out keeps the value of the level below (zod's `.partial()` keeps defaults).
 */
function overrideOf<Shape extends z.ZodRawShape>(schema: z.ZodObject<Shape>) {
  const fields = Object.fromEntries(
    Object.entries(schema.shape).map(([name, field]) => [name, (field instanceof z.ZodDefault ? (field.unwrap() as z.ZodType) : (field as z.ZodType)).optional()]),
  );
  return z.strictObject(fields) as unknown as z.ZodType<Partial<z.output<z.ZodObject<Shape>>>, Partial<z.input<z.ZodObject<Shape>>>>;
}

const pagingOverrideSchema = overrideOf(pagingSchema);
const recordOverrideSchema = overrideOf(recordSelectorSchema);

/** Incremental reads: the next run starts at the highest `field` stored, minus `overlap`. */
export const incrementalSchema = z.strictObject({
  param: z.string().min(1),
  field: dotPath,
  /** Subtracted from a stored cursor as a BigInt: any safe integer works. */
  overlap: integer(0, Number.MAX_SAFE_INTEGER).default(0),
});

/** The request parameter that carries a query's `q`: Last.fm names it by method (`artist`, `user`), Etherscan by action (`address`, `txhash`). */
const qParam = z.string().min(1).optional();

export const querySchema = z.strictObject({
  q: z.string().optional(),
  qParam,
  params: z.record(z.string(), paramValue).default({}),
  records: recordOverrideSchema.optional(),
  paging: pagingOverrideSchema.optional(),
  incremental: incrementalSchema.optional(),
  /** One run per value (a user, an artist, an address): see forEachSchema. */
  forEach: forEachSchema.optional(),
  /** How its records are written (default: the job's, else merge); see README "Write modes". */
  mode: writeModeSchema.optional(),
});

export const scheduleSchema = z.strictObject({
  cron: z.string().refine((value) => cron.validate(value), {
    error: (issue) => `${JSON.stringify(issue.input)} is not a valid cron expression`,
  }),
  timezone: z.string().default('UTC').refine((zone) => isTimeZone(zone), {
    error: (issue) => `${JSON.stringify(issue.input)} is not an IANA time zone`,
  }),
});

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
  httpHost: z.string().default('127.0.0.1'),
  /** Serve the bull-board dashboard at /admin/queues (basic auth from DASHBOARD_USER / DASHBOARD_PASSWORD). */
  dashboard: z.boolean().default(false),
});

export const jobSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'must be letters, digits, ".", "_" or "-"'),
  source: z.string().min(1),
  schedule: scheduleSchema.optional(),
  /** A tick while the previous run of the same query still runs: skip it, or queue it behind. */
  overlap: z.enum(['skip', 'queue']).default('skip'),
  /** Sent with every query of the job, over the source's params; a query's own win. */
  params: requestParams.default({}),
  /** Where each query's `q` is sent (default `q`); a query's own `qParam` wins. */
  qParam,
  records: recordOverrideSchema.optional(),
  paging: pagingOverrideSchema.optional(),
  retention: retentionSchema.optional(),
  /** Every query's write mode unless it sets its own. */
  mode: writeModeSchema.optional(),
  queries: z.array(querySchema).min(1, 'needs at least one query'),
});

/** Svix's: about 27.6 hours in all, the last wait repeated until `giveUpAfterMs`. */
const DEFAULT_RETRY_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

export const webhookSchema = z
  .strictObject({
    baseUrl: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
    uuid: z.uuid({ error: 'must be a UUID' }),
    /** Standard Webhooks signing secret, `whsec_` + base64 of at least 24 bytes; empty: unsigned. */
    secret: webhookSecretSchema,
    timeoutMs: webhookTimeoutMs.default(15_000),
    /** Notices posted at once; each batch of this many is leased and recorded in one statement each. */
    concurrency: count(1).default(10),
    /** Waits before each retry of a failed delivery (Svix's schedule by default); jittered ±20%. */
    retryScheduleMs: z.array(durationMs(1)).min(1).optional(),
    /** After this age an undelivered notice is marked exhausted; it bounds every wait written to an `int` column. */
    giveUpAfterMs: durationMs(1).default(3 * 24 * 3_600_000),
    /** Which notices are posted: one per job tick (`job`), one per run (`run`), or both. */
    notices: z.enum(['job', 'run', 'both']).default('job'),
  })
  // Only a schedule the config sets is checked: with a short giveUpAfterMs, the default schedule is meant to be cut short.
  .superRefine((webhook, ctx) => {
    const problem = webhook.retryScheduleMs && unreachableRetry(webhook.retryScheduleMs, webhook.giveUpAfterMs);
    if (problem) ctx.addIssue({ code: 'custom', ...problem });
  })
  .transform((webhook) => ({ ...webhook, retryScheduleMs: webhook.retryScheduleMs ?? [...DEFAULT_RETRY_SCHEDULE_MS] }));

export const configSchema = z
  .strictObject(
    {
      sources: z.record(z.string().regex(/^[a-z][a-z0-9_-]*$/, 'source names must be lower case: a letter, then letters, digits, "_" or "-"'), sourceSchema),
      jobs: z.array(jobSchema).min(1, 'needs at least one job'),
      webhook: webhookSchema.optional(),
      worker: workerSchema.prefault({}),
      /** Per record kind, the typed view analysts query: see kindsSchema. */
      kinds: kindsSectionSchema,
      analytics: analyticsSchema.prefault({}),
    },
    { error: (issue) => (issue.code === 'invalid_type' ? `the config must be a mapping of sections (sources, jobs, webhook, worker, kinds, analytics), not ${describeValue(issue.input)}` : undefined) },
  )
  .superRefine(reportInconsistencies);

function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  return Array.isArray(value) ? 'a list' : `a ${typeof value}`;
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export type ConfigInput = z.input<typeof configSchema>;
export type Config = z.output<typeof configSchema>;
export type SourceConfig = z.output<typeof sourceSchema>;
export type JobConfig = z.output<typeof jobSchema>;
export type QueryConfig = z.output<typeof querySchema>;
export type PagingConfig = z.output<typeof pagingSchema>;
export type RecordSelectorConfig = z.output<typeof recordSelectorSchema>;
export type RetryPolicy = z.output<typeof retryPolicySchema>;
export type IncrementalConfig = z.output<typeof incrementalSchema>;
export type WebhookConfig = z.output<typeof webhookSchema>;
export type WorkerConfig = z.output<typeof workerSchema>;
