import { z } from 'zod';
import { count, durationMs, webhookTimeoutMs } from '../bounds.js';
import { httpUrl } from '../sources/httpUrl.js';
import { unreachableRetry } from '../configConsistency.js';
import { webhookSecretSchema } from './webhookSecret.js';

/** Svix's: about 27.6 hours in all, the last wait repeated until `giveUpAfterMs`. */
const DEFAULT_RETRY_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

export const webhookSchema = z
  .strictObject({
    baseUrl: httpUrl('a receiver knows notices are feedsync\'s by their signature (webhook.secret)'),
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

export type WebhookConfig = z.output<typeof webhookSchema>;
