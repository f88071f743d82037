import cron from 'node-cron';
import { z } from 'zod';
import { integer } from '../bounds.js';
import { writeModeSchema } from '../analytics/kindsSchema.js';
import { dotPath } from '../records/dotPath.js';
import { recordSelectorSchema } from '../records/recordSelectorSchema.js';
import { pagingSchema } from '../sources/pagingSchema.js';
import { paramValue, requestParams } from '../sources/requestParams.js';
import { forEachSchema } from './forEachSchema.js';
import { retentionSchema } from './retentionSchema.js';

/**
 * An override of a source's or job's settings: every field optional and without its default, so
 * that what it leaves out keeps the value of the level below (zod's `.partial()` keeps defaults).
 * Its JSON Schema is `<id>Override`, documented as the section it overrides.
 */
function overrideOf<Shape extends z.ZodRawShape>(schema: z.ZodObject<Shape>, id: string, description: string) {
  const fields = Object.fromEntries(
    Object.entries(schema.shape).map(([name, field]) => [name, (field instanceof z.ZodDefault ? (field.unwrap() as z.ZodType) : (field as z.ZodType)).optional()]),
  );
  return z.strictObject(fields).meta({ id: `${id}Override`, description }) as unknown as z.ZodType<Partial<z.output<z.ZodObject<Shape>>>, Partial<z.input<z.ZodObject<Shape>>>>;
}

const pagingOverrideSchema = overrideOf(pagingSchema, 'paging', "The fields of `paging`, each over the source's (and a query's over its job's).");
const recordOverrideSchema = overrideOf(recordSelectorSchema, 'records', "The fields of `records`: a query's over its job's; `path` and `kind` must be set on one of the two.");

export const incrementalSchema = z
  .strictObject({
    param: z.string().min(1).describe('The request parameter that takes the lower bound (`startblock`, Last.fm\'s `from`).'),
    field: dotPath.describe('The record field whose highest stored value is the next lower bound (`blockNumber`, `date.uts`).'),
    overlap: integer(0, Number.MAX_SAFE_INTEGER)
      .describe('Subtracted from the stored value (as a BigInt), to read again what may have changed or arrived late: 12 blocks for a reorg, 3600 s for late scrobbles.')
      .default(0),
  })
  .meta({
    id: 'incremental',
    description: 'Incremental reads: each run starts at the highest `field` stored for its query (and value), minus `overlap`; a cursor of its own for each query and value.',
  });

export const querySchema = z
  .strictObject({
    q: z.string().describe("The query's subject (a search term, an artist, an address), sent as `qParam`; what `$query` stands for in record keys.").optional(),
    qParam: z.string().min(1).meta({ description: "The request parameter `q` is sent as; over the job's.", examples: ['user'] }).optional(),
    params: z.record(z.string(), paramValue).describe('Request parameters of this query (`method: artist.search`, or `module: account` with `action: txlist`), over the job\'s and the source\'s.').default({}),
    records: recordOverrideSchema.optional(),
    paging: pagingOverrideSchema.optional(),
    incremental: incrementalSchema.optional(),
    forEach: forEachSchema.optional(),
    mode: writeModeSchema
      .meta({
        description: "How its records are written: `merge` (upsert), `full_refresh` (and mark deleted what a complete run no longer returns) or `append` (and keep every version); default the job's, else `merge`.",
        examples: ['full_refresh'],
      })
      .optional(),
  })
  .meta({ id: 'query', description: 'One query of a job: a run of it reads every page of its results (a run per value, with `forEach`).' });

export const scheduleSchema = z
  .strictObject({
    cron: z
      .string()
      .refine((value) => cron.validate(value), { error: (issue) => `${JSON.stringify(issue.input)} is not a valid cron expression` })
      .describe('When the job ticks: a cron expression of 5 fields, or 6 with seconds first.'),
    timezone: z
      .string()
      .default('UTC')
      .refine((zone) => isTimeZone(zone), { error: (issue) => `${JSON.stringify(issue.input)} is not an IANA time zone` })
      .describe('The IANA time zone the cron expression is read in.'),
  })
  .meta({ id: 'schedule', description: 'When a job ticks by itself, in `feedsync scheduler` (or `start`). Without it the job ticks only by `feedsync enqueue` or `run`.' });

export const jobSchema = z
  .strictObject({
    name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'must be letters, digits, ".", "_" or "-"').describe("The job's name, as commands and notices give it: letters, digits, `.`, `_` and `-`."),
    source: z.string().min(1).describe('The name of the source its queries read (a key of `sources`).'),
    schedule: scheduleSchema.optional(),
    overlap: z
      .enum(['skip', 'queue'])
      .describe('A schedule tick that fires while the last run of the same query (value) still runs: `skip` leaves that query out of the tick (counted as skipped); `queue` queues it behind, the runs of one query going one at a time, oldest tick first, even when workers take several up at once.')
      .default('skip'),
    params: requestParams.meta({ description: "Request parameters sent with every query of the job, over the source's; a query's own win.", examples: [{ module: 'account', sort: 'asc' }] }).default({}),
    qParam: z.string().min(1).describe("The request parameter each query's `q` is sent as (Last.fm wants `artist` or `user`, Etherscan `address`); default `q`.").optional(),
    records: recordOverrideSchema.optional(),
    paging: pagingOverrideSchema.optional(),
    retention: retentionSchema.optional(),
    mode: writeModeSchema.describe("The write mode of every query that sets none (default `merge`).").optional(),
    queries: z.array(querySchema).min(1, 'needs at least one query').describe('The queries a tick of the job runs, each a run (or a run per value).'),
  })
  .meta({ id: 'job', description: 'What to sync from one source, and when: a tick of the job (a schedule firing, `feedsync enqueue` or `run`) runs each of its queries once.' });

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export type JobConfig = z.output<typeof jobSchema>;
export type QueryConfig = z.output<typeof querySchema>;
export type IncrementalConfig = z.output<typeof incrementalSchema>;
