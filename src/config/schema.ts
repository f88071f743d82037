import cron from 'node-cron';
import { z } from 'zod';
import { retentionSchema } from './jobs/retentionSchema.js';
import { notPrototypeName } from './loading/treeShape.js';
import { count, durationMs, integer } from './bounds.js';
import { authSchema, headerSecret } from './sources/authSchema.js';
import { reportInconsistencies } from './configConsistency.js';
import { dotPath, dotPathOrWhole } from './records/dotPath.js';
import { forEachSchema } from './jobs/forEachSchema.js';
import { httpUrl } from './sources/httpUrl.js';
import { analyticsSchema, kindsSectionSchema, writeModeSchema } from './analytics/kindsSchema.js';
import { recordSkipSchema } from './records/recordSkipSchema.js';
import { responseErrorsSchema, responseSchema } from './sources/responseSchema.js';
import { userAgentContact } from './sources/userAgentContact.js';
import { webhookSchema } from './worker/webhookSchema.js';
import { workerSchema } from './worker/workerSchema.js';

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

/** One window of a rate limit: at most `max` requests in any `durationMs`, across every worker. */
export const rateWindowSchema = z.strictObject({
  max: count(1),
  durationMs: durationMs(1).default(1000),
});

export type RateWindow = z.output<typeof rateWindowSchema>;

const rateWindows = z.array(rateWindowSchema).min(1, 'must list at least one window');

/**
 * A source's rate limit: one window (`{max: 4, durationMs: 1000}`), or a list held all at once
 * (Etherscan's free tier: a few requests a second and 100,000 a day). Parsed by hand so that an
 * error in the one-window form names its field, not a union's "invalid input".
 */
export const rateLimitSchema = z.unknown().transform((value, ctx): RateWindow[] => {
  const parsed = Array.isArray(value) ? rateWindows.safeParse(value) : rateWindowSchema.transform((window) => [window]).safeParse(value);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  return z.NEVER;
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
  /**
   * Where the result total sits in `data`: a dot path, or a list tried in order. Read for progress
   * and the shortfall check, from `total`, `results.total` or `@attr.total` when unset; set, it also
   * gives the page count where the upstream states none (see StopRules). Only a path one names is
   * trusted for that: an unset one may find a `total` that counts something else.
   */
  totalPath: z
    .union([dotPath, z.array(dotPath).min(1)], { error: 'must be a dot path or a list of dot paths' })
    .transform((paths) => (typeof paths === 'string' ? [paths] : paths))
    .optional(),
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
   * composite key, e.g. `[$query, id]` for items relative to the query: its parts joined with
   * `|`, a `\` or `|` within a part escaped with `\` (`a\|b|c` is `[a|b, c]`).
   */
  key: z.union([keyPart, z.array(keyPart).min(1)]).default('id'),
  /** Kind of record, e.g. `artist`; with the source and key it names one row of `records`. */
  kind: z.string().regex(/^[a-z][a-z0-9_]*$/, 'must be lower case letters, digits and _'),
  /**
   * A record that has no key (not an object, or no text or number at a key part) or that Postgres
   * cannot take (a lone surrogate, a NUL in its key, nesting too deep): `fail` fails its page,
   * naming it; `skip` keeps it in `dead_letters` and stores the rest of the page.
   */
  onInvalid: z.enum(['fail', 'skip']).default('fail'),
  /** Records left out before keys are read (Last.fm's "now playing" track, which has no date): counted per run as filtered. */
  skip: recordSkipSchema.optional(),
});

const paramValue = z
  .union([z.string(), z.number(), z.boolean()], { error: (issue) => `must be a string, number or boolean (a request parameter's value), not ${describeValue(issue.input)}` })
  .refine((value) => typeof value !== 'string' || !value.includes('\0'), 'must not contain a NUL character: no request can carry it');
/** Request parameters as sent: numbers and booleans as their text. */
const requestParams = z.record(z.string(), paramValue).transform((params) => Object.fromEntries(Object.entries(params).map(([key, value]) => [key, String(value)])));

export const sourceSchema = z
  .strictObject({
  baseUrl: httpUrl('set auth: {type: basic, username, password} instead'),
  /** Shorthand for `auth: {type: bearer, value: apiKey}`. */
  apiKey: headerSecret.optional(),
  auth: authSchema.optional(),
  /** Path of the endpoint under `baseUrl`, e.g. `/2.0/` or `/api`. */
  path: z.string().startsWith('/', 'must start with /'),
  timeoutMs: durationMs(1).default(15_000),
  /**
   * A URL or e-mail address the upstream's operators can reach you at, sent as `User-Agent:
   * feedsync/<version> (+<contact>)` (Last.fm asks clients to identify themselves); without it, `feedsync/<version>`.
   */
  userAgent: userAgentContact.optional(),
  /**
   * Send each request's W3C `traceparent` (its span's) when tracing is on, so an upstream that
   * traces sees feedsync's requests in the same trace. Off by default: some APIs refuse headers they do not know.
   */
  sendTraceparent: z.boolean().default(false),
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
  /** How its records are written (default: the job's, else merge); see docs/analytics.md, "Write modes". */
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

export const configSchema = z
  .strictObject(
    {
      sources: z.record(notPrototypeName(z.string().regex(/^[a-z][a-z0-9_-]*$/, 'source names must be lower case: a letter, then letters, digits, "_" or "-"')), sourceSchema),
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
  return Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
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
