import { z } from 'zod';
import { count, integer } from '../bounds.js';

export const retentionSchema = z
  .strictObject({
    envelopes: z
      .strictObject({
        maxAgeDays: integer(1, 36_500, 'a century: the age is a Postgres interval, and pruning compares it to timestamps').meta({ description: "A succeeded run's pages may go once the run is older than this many days.", examples: [30] }).optional(),
        keepLastRuns: count(1).meta({ description: 'The last this many succeeded runs of each query (and value) keep their pages, however old.', examples: [3] }).optional(),
      })
      .meta({
        description:
          "The stored pages (envelopes and their bodies): a succeeded run's go once it is older than `maxAgeDays` and not among the last `keepLastRuns` succeeded runs of its query (and value); with one of the two set, that one alone decides.",
        examples: [{ maxAgeDays: 30, keepLastRuns: 3 }],
      })
      .optional(),
  })
  .meta({
    id: 'retention',
    description:
      "How long stored pages are kept, on a source or a job (the job's fields win). Unset, everything is kept. Pages of failed, partial and unfinished runs are always kept. `feedsync prune` applies it, and the scheduler does daily at 03:30 UTC.",
  });

export type RetentionConfig = z.output<typeof retentionSchema>;
/** A job's policy for its stored pages, its own settings over its source's. */
export type EnvelopeRetention = NonNullable<RetentionConfig['envelopes']>;
