import { z } from 'zod';
import { dotPath } from '../records/dotPath.js';

/** `$key`: the stored record's key rather than a field of its payload. */
export const RECORD_KEY_FIELD = '$key';

/**
 * A list of values written in the config, or one string of comma-separated values (what
 * `${ENV}` gives): `values: [us-0001, us-0002]` or `values: ${FEEDSYNC_USERS}`.
 */
const valueList = z.preprocess(
  (value) => (typeof value === 'string' ? value.split(',').map((item) => item.trim()).filter((item) => item !== '') : value),
  z.array(z.union([z.string().min(1, 'must not be empty'), z.number()]), { error: 'must be a list of values, or one string of comma-separated values' }).transform((values) => values.map(String)),
);

/**
 * Fan-out: one run of the query per value. The values are a fixed list, or every value of
 * `field` among the stored records of `kind` (and `source`, the job's by default), read at each
 * tick. `param` is the request parameter that takes the value; absent, the value is the query's
 * `q` (sent as its qParam). Either way it is what `$query` stands for in record keys.
 */
export const forEachSchema = z
  .strictObject({
    kind: z.string().min(1).optional(),
    source: z.string().min(1).optional(),
    field: z.union([z.literal(RECORD_KEY_FIELD), dotPath]).optional(),
    values: valueList.optional(),
    param: z.string().min(1).optional(),
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
  });

export type ForEachConfig = z.output<typeof forEachSchema>;
