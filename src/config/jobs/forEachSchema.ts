import { z } from 'zod';
import { dotPath } from '../records/dotPath.js';

/** `$key`: the stored record's key rather than a field of its payload. */
export const RECORD_KEY_FIELD = '$key';

/**
 * A list of values written in the config, or one string of comma-separated values (what
 * `${ENV}` gives): `values: [us-0001, us-0002]` or `values: ${FEEDSYNC_USERS}`. The preprocess
 * hides the string form from JSON Schema: configJsonSchema.ts writes it.
 */
export const forEachValues = z.preprocess(
  (value) => (typeof value === 'string' ? value.split(',').map((item) => item.trim()).filter((item) => item !== '') : value),
  z.array(z.union([z.string().min(1, 'must not be empty'), z.number()]), { error: 'must be a list of values, or one string of comma-separated values' }).transform((values) => values.map(String)),
);

export const forEachSchema = z
  .strictObject({
    kind: z.string().min(1).describe('Fan out over the stored records of this kind: a run for every value of `field` among them, read afresh at each tick.').optional(),
    source: z.string().min(1).meta({ description: "With `kind`: the source whose stored records are read (default: the job's).", examples: ['music'] }).optional(),
    field: z
      .union([z.literal(RECORD_KEY_FIELD), dotPath])
      .describe(`With \`kind\`: the dot path of the value in each record's payload, or \`${RECORD_KEY_FIELD}\` for its key.`)
      .optional(),
    values: forEachValues.describe('Fan out over a list: written in the config, or one string of comma-separated values (what `${NAME}` gives: `values: ${FEEDSYNC_USERS}`). A value listed twice runs once.').optional(),
    param: z.string().min(1).describe("The request parameter that takes the value; absent, the value is the run's `q` (sent as its `qParam`).").optional(),
  })
  .superRefine((forEach, ctx) => {
    if (forEach.kind !== undefined && forEach.values !== undefined) {
      ctx.addIssue({ code: 'custom', message: 'sets both kind and values: fan out over stored records ({kind, field}) or over a list ({values}), not both' });
    } else if (forEach.kind === undefined && forEach.values === undefined) {
      ctx.addIssue({ code: 'custom', message: 'needs kind and field (every value of a field among stored records) or values (a list)' });
    } else if (forEach.kind !== undefined && forEach.field === undefined) {
      ctx.addIssue({ code: 'custom', path: ['field'], message: `is required with kind: the dot path of the value in each record's payload, or ${RECORD_KEY_FIELD} for its key` });
    } else if (forEach.values !== undefined && (forEach.field !== undefined || forEach.source !== undefined)) {
      ctx.addIssue({ code: 'custom', message: 'field and source go with kind (stored records), not with values' });
    }
  })
  .meta({
    id: 'forEach',
    description:
      'Fan-out: one run of the query per value (a user, an artist, an address), each with its own run key, checkpoint and incremental cursor: every value of `field` among the stored records of `kind`, or a list of `values`. Either way `$query` in a record key stands for the value (see "Fan-out and job ticks" below).',
  });

export type ForEachConfig = z.output<typeof forEachSchema>;
