import { z } from 'zod';
import { retentionSchema } from '../jobs/retentionSchema.js';
import { count, durationMs, integer } from '../bounds.js';
import { authSchema, headerSecret } from './authSchema.js';
import { httpUrl } from './httpUrl.js';
import { pagingSchema } from './pagingSchema.js';
import { requestParams } from './requestParams.js';
import { responseErrorsSchema, responseSchema } from './responseSchema.js';
import { userAgentContact } from './userAgentContact.js';

export const retryPolicySchema = z
  .strictObject({
    attempts: integer(1, 20).describe('Attempts per request, the first included.').default(5),
    baseDelayMs: durationMs(0).describe('First backoff ceiling, in ms; each retry doubles it, and full jitter waits a random time from 0 to the ceiling.').default(500),
    maxDelayMs: durationMs(0).describe('Highest backoff ceiling, in ms.').default(30_000),
    maxRetryAfterMs: durationMs(0).describe("A longer `Retry-After` than this (ms) is capped to it; a `Retry-After` takes the place of the backoff's wait.").default(60_000),
  })
  .meta({
    id: 'retry',
    description: 'How a request that may pass is retried: a network error, a timeout, HTTP 429 or 5xx, a body cut short, or an error body the source classes as rate limited or passing. Any other error fails the page at once.',
  });

export const rateWindowSchema = z
  .strictObject({
    max: count(1).describe('Most requests in any window, across every worker.'),
    durationMs: durationMs(1).describe("The window's length, in ms.").default(1000),
  })
  .meta({ id: 'rateWindow', description: 'One window of a rate limit: at most `max` requests in any `durationMs`, held across every worker process (in Redis).' });

export type RateWindow = z.output<typeof rateWindowSchema>;

const rateWindows = z.array(rateWindowSchema).min(1, 'must list at least one window');

/**
 * Parsed by hand so that an error in the one-window form names its field, not a union's "invalid
 * input"; configJsonSchema.ts writes its JSON Schema, which the transform hides.
 */
export const rateLimitSchema = z
  .unknown()
  .transform((value, ctx): RateWindow[] => {
    const parsed = Array.isArray(value) ? rateWindows.safeParse(value) : rateWindowSchema.transform((window) => [window]).safeParse(value);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    return z.NEVER;
  })
  .describe(
    "How fast the source may be asked: one window (`{max: 4, durationMs: 1000}`), or a list of windows held all at once (Etherscan's free tier: 4 a second and 100,000 a day). Held across all workers, and by `feedsync run` when `REDIS_URL` is set (without it, `run` holds the limit in its own process). Unset: no limit.",
  );

export const sourceSchema = z
  .strictObject({
    baseUrl: httpUrl('set auth: {type: basic, username, password} instead').describe('Where the source lives: its scheme, host and port. A next-page URL must stay on its origin.'),
    apiKey: headerSecret.describe('Short for `auth: {type: bearer, value: <apiKey>}`; set this or `auth`, not both.').optional(),
    auth: authSchema.optional(),
    path: z.string().startsWith('/', 'must start with /').describe("Path of the endpoint under `baseUrl`: `/2.0/` (Last.fm), `/v2/api` (Etherscan's API V2)."),
    timeoutMs: durationMs(1).describe('How long a request may take, in ms, before it fails as a timeout (and is retried).').default(15_000),
    userAgent: userAgentContact
      .describe('A URL or e-mail address the upstream\'s operators can reach you at (Last.fm asks clients to identify themselves): every request sends `User-Agent: feedsync/<version>`, and this appends ` (+<contact>)`.')
      .optional(),
    sendTraceparent: z
      .boolean()
      .meta({
        description:
          "Send each request's W3C `traceparent` header (its span's) while tracing is on, so that an upstream that traces sees feedsync's requests in the same trace (docs/operations.md, \"Traces\"). Off by default: some APIs refuse headers they do not know.",
        examples: [true],
      })
      .default(false),
    maxResponseBytes: count(1).meta({ description: 'Largest response body taken, in bytes: a larger one is refused (`too_large`).', examples: [16_777_216] }).default(64 * 1024 * 1024),
    retry: retryPolicySchema.prefault({}),
    rateLimit: rateLimitSchema.optional(),
    connections: count(1)
      .meta({
        description: "Most keep-alive connections a worker process keeps to the source, for an upstream that caps them per key or address; requests beyond it wait in the worker. By default one for each request the worker's runs may have in flight (3 a run: see `worker.concurrency`).",
        examples: [4],
      })
      .optional(),
    paging: pagingSchema.prefault({}),
    response: responseSchema.prefault({}),
    errors: responseErrorsSchema.prefault({}),
    params: requestParams.describe("Request parameters sent with every request of the source (`format: json`); a job's or query's of the same name win.").default({}),
    retention: retentionSchema.optional(),
  })
  .superRefine((source, ctx) => {
    if (source.apiKey === undefined && source.auth === undefined) ctx.addIssue({ code: 'custom', path: ['auth'], message: 'is required: set auth (or apiKey, for a Bearer key); auth: {type: none} for an API without one' });
    if (source.apiKey !== undefined && source.auth !== undefined) ctx.addIssue({ code: 'custom', path: ['apiKey'], message: 'and auth are both set: keep one (apiKey is short for auth: {type: bearer, value: …})' });
  })
  .transform(({ apiKey, auth, ...source }) => ({ ...source, auth: auth ?? { type: 'bearer' as const, value: apiKey! } }))
  .meta({ id: 'source', description: 'An HTTP API to read: where it lives, how its requests carry the key, how its answers are read and paged, and how fast it may be asked.' });

export type SourceConfig = z.output<typeof sourceSchema>;
export type RetryPolicy = z.output<typeof retryPolicySchema>;
