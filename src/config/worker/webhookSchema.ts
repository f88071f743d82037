import { z } from 'zod';
import { count, durationMs, webhookTimeoutMs } from '../bounds.js';
import { httpUrl } from '../sources/httpUrl.js';
import { unreachableRetry } from '../configConsistency.js';
import { webhookSecretSchema } from './webhookSecret.js';

/** Svix's: about 27.6 hours in all, the last wait repeated until `giveUpAfterMs`. */
const DEFAULT_RETRY_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

export const webhookSchema = z
  .strictObject({
    baseUrl: httpUrl('a receiver knows notices are feedsync\'s by their signature (webhook.secret)').describe('Where notices are posted: each to `<baseUrl>/<uuid>`.'),
    uuid: z.uuid({ error: 'must be a UUID' }).describe("The receiver's UUID, the last segment of the URL notices are posted to."),
    secret: webhookSecretSchema.describe('The Standard Webhooks signing secret: `whsec_` and strict base64 of at least 24 bytes. Empty or left out: notices are unsigned.'),
    timeoutMs: webhookTimeoutMs.meta({ description: 'How long a delivery may take, in ms, before it fails (and is retried).', examples: [10_000] }).default(15_000),
    // Each batch of this many is leased and recorded in one statement each.
    concurrency: count(1).meta({ description: 'Notices posted at once.', examples: [20] }).default(10),
    retryScheduleMs: z
      .array(durationMs(1))
      .min(1)
      .meta({
        description:
          "The waits, in ms, before each retry of a failed delivery, jittered ±20%, the last repeated until `giveUpAfterMs` (default Svix's: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h). A schedule whose waits add up past `giveUpAfterMs` is an error: those retries could never happen.",
        examples: [[5_000, 60_000, 600_000]],
      })
      .optional(),
    // It bounds every wait written to an `int` column.
    giveUpAfterMs: durationMs(1).meta({ description: 'After this age, in ms, an undelivered notice is given up (marked exhausted).', examples: [86_400_000] }).default(3 * 24 * 3_600_000),
    notices: z
      .enum(['job', 'run', 'both'])
      .meta({
        description:
          "Which notices are posted: `job`, one per job tick (`job.succeeded`, `job.partial`, `job.failed`); `run`, one per run (`sync.succeeded`, `sync.partial`, `sync.failed`, the last two with `error: {kind, message}` saying why, and `warnings`: what the upstream said beside data it sent, also logged once and shown on the run's history page); or `both`.",
        examples: ['both'],
      })
      .default('job'),
  })
  // Only a schedule the config sets is checked: with a short giveUpAfterMs, the default schedule is meant to be cut short.
  .superRefine((webhook, ctx) => {
    const problem = webhook.retryScheduleMs && unreachableRetry(webhook.retryScheduleMs, webhook.giveUpAfterMs);
    if (problem) ctx.addIssue({ code: 'custom', ...problem });
  })
  .transform((webhook) => ({ ...webhook, retryScheduleMs: webhook.retryScheduleMs ?? [...DEFAULT_RETRY_SCHEDULE_MS] }))
  .meta({ id: 'webhook', description: 'Where completion notices are posted, signed as Standard Webhooks; delivered from an outbox in Postgres, retried on a schedule.' });

export type WebhookConfig = z.output<typeof webhookSchema>;
