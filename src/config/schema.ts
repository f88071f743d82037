import { z } from 'zod';
import { describeValue, notPrototypeName } from './loading/treeShape.js';
import { reportInconsistencies } from './configConsistency.js';
import { jobSchema } from './jobs/jobSchema.js';
import { analyticsSchema, kindsSectionSchema } from './analytics/kindsSchema.js';
import { sourceSchema } from './sources/sourceSchema.js';
import { webhookSchema } from './worker/webhookSchema.js';
import { workerSchema } from './worker/workerSchema.js';

export { retryPolicySchema, sourceSchema, type RateWindow, type RetryPolicy, type SourceConfig } from './sources/sourceSchema.js';
export { pagingSchema, type PagingConfig } from './sources/pagingSchema.js';
export { recordSelectorSchema, type RecordSelectorConfig } from './records/recordSelectorSchema.js';
export { jobSchema, type IncrementalConfig, type JobConfig, type QueryConfig } from './jobs/jobSchema.js';

const sourceName = notPrototypeName(z.string().regex(/^[a-z][a-z0-9_-]*$/, 'source names must be lower case: a letter, then letters, digits, "_" or "-"'));

export const configSchema = z
  .strictObject(
    {
      sources: z.record(sourceName, sourceSchema).describe('The HTTP APIs to read, by name (lower case: a letter, then letters, digits, `_` or `-`); jobs name them.'),
      jobs: z.array(jobSchema).min(1, 'needs at least one job').describe('What to sync, from which source, and when.'),
      webhook: webhookSchema.optional(),
      worker: workerSchema.prefault({}),
      kinds: kindsSectionSchema,
      analytics: analyticsSchema.prefault({}),
    },
    { error: (issue) => (issue.code === 'invalid_type' ? `the config must be a mapping of sections (sources, jobs, webhook, worker, kinds, analytics), not ${describeValue(issue.input)}` : undefined) },
  )
  .meta({ title: 'feedsync config', description: "feedsync's config (feedsync.yaml): the sources to read, the jobs that sync them, the webhook that hears of it, the worker, and the kinds' typed views." })
  .superRefine(reportInconsistencies);

export type ConfigInput = z.input<typeof configSchema>;
export type Config = z.output<typeof configSchema>;
