import { z } from 'zod';
import { dotPath } from './dotPath.js';

const recordConditionSchema = z
  .strictObject({
    path: dotPath.describe('Where the value sits in the record.'),
    equals: z.union([z.string(), z.number(), z.boolean(), z.null()]).describe('The record matches when the value at `path` equals this.').optional(),
    exists: z.boolean().meta({ description: 'The record matches when there is a value at `path` (`true`) or none (`false`).', examples: [false] }).optional(),
  })
  .refine((condition) => (condition.equals === undefined) !== (condition.exists === undefined), 'needs exactly one of equals or exists')
  .meta({ id: 'skipCondition', description: 'One condition on a record, with exactly one of `equals` and `exists`.' });

/** Records to leave out: one condition, or a list of which any one is enough. */
export const recordSkipSchema = z
  .union([recordConditionSchema, z.array(recordConditionSchema).min(1, 'needs at least one condition')])
  .transform((conditions) => (Array.isArray(conditions) ? conditions : [conditions]));

export type RecordCondition = z.output<typeof recordConditionSchema>;
