import { z } from 'zod';
import { count, integer } from '../bounds.js';

/**
 * How long stored pages are kept (per source, or per job over its source's, field by field).
 * A succeeded run's pages go once it is older than `maxAgeDays` and is not among the last
 * `keepLastRuns` succeeded runs of its query (and value); with one of the two set, that one alone
 * decides. Unset, everything is kept. Pages of failed, partial and unfinished runs are always kept.
 */
export const retentionSchema = z.strictObject({
  envelopes: z
    .strictObject({
      maxAgeDays: integer(1, 36_500, 'a century: the age is a Postgres interval, and pruning compares it to timestamps').optional(),
      keepLastRuns: count(1).optional(),
    })
    .optional(),
});

export type RetentionConfig = z.output<typeof retentionSchema>;
/** A job's policy for its stored pages, its own settings over its source's. */
export type EnvelopeRetention = NonNullable<RetentionConfig['envelopes']>;
