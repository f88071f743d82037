import { z } from 'zod';
import { dotPath } from './dotPath.js';

/** One condition on a record: the value at `path` equals `equals`, or is there (`exists: true`) or not (`exists: false`). */
const recordConditionSchema = z
  .strictObject({
    path: dotPath,
    equals: z.union([z.string(), z.number(), z.boolean(), z.null()]).optional(),
    exists: z.boolean().optional(),
  })
  .refine((condition) => (condition.equals === undefined) !== (condition.exists === undefined), 'needs exactly one of equals or exists');

/** Records to leave out: one condition, or a list of which any one is enough. */
export const recordSkipSchema = z
  .union([recordConditionSchema, z.array(recordConditionSchema).min(1, 'needs at least one condition')])
  .transform((conditions) => (Array.isArray(conditions) ? conditions : [conditions]));

export type RecordCondition = z.output<typeof recordConditionSchema>;
