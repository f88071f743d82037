import { z } from 'zod';
import { dotPath } from '../records/dotPath.js';
import { notPrototypeName } from '../loading/treeShape.js';
import { reservedSchemaProblem } from './viewNames.js';

/** The column types a kind's view may declare: what Postgres casts each value to. */
export const COLUMN_TYPES = ['text', 'integer', 'bigint', 'numeric', 'boolean', 'timestamptz', 'date', 'jsonb'] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];

/** How a timestamp or date is written in the payload. */
export const TIME_FORMATS = ['iso8601', 'unix_seconds'] as const;

/** Columns every kind's view has, from the record row rather than its payload: a declared column may not take their names. */
export const RECORD_COLUMNS = ['source', 'key', 'first_seen', 'changed_at', 'deleted_at', 'change_seq', 'valid_from', 'valid_to'] as const;

/** The record columns an index may name besides the kind's own. */
const INDEXABLE_RECORD_COLUMNS = ['source', 'key', 'first_seen', 'changed_at', 'change_seq'] as const;

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;
const identifierMessage = 'must be an SQL identifier: a lower-case letter or "_", then letters, digits or "_" (at most 63)';

/** A Postgres identifier feedsync writes unquoted-safe (it quotes it anyway). */
export const sqlIdentifier = z.string().regex(IDENTIFIER, identifierMessage);

const columnSchema = z
  .strictObject({
    path: z
      .union([dotPath, z.array(dotPath).min(1)])
      .transform((path) => (typeof path === 'string' ? [path] : path))
      .describe("Where the value sits in the record's payload; a list is tried in order, the first present wins (Last.fm's `[artist.name, artist]`)."),
    type: z
      .enum(COLUMN_TYPES, { error: (issue) => `${JSON.stringify(issue.input)} is not a column type (have: ${COLUMN_TYPES.join(', ')})` })
      .describe('The Postgres type the value is cast to; a value that does not cast shows as NULL (`feedsync views check` counts them).'),
    from: z
      .enum(TIME_FORMATS, { error: (issue) => `${JSON.stringify(issue.input)} is not a time format (have: ${TIME_FORMATS.join(', ')})` })
      .describe("For `timestamptz` and `date`: how the payload writes it, ISO 8601 text (`iso8601`, the default) or seconds since 1970 (`unix_seconds`: Last.fm's `uts`, Etherscan's `timeStamp`).")
      .optional(),
  })
  .superRefine((column, ctx) => {
    if (column.from !== undefined && column.type !== 'timestamptz' && column.type !== 'date') {
      ctx.addIssue({ code: 'custom', path: ['from'], message: `goes with type timestamptz or date, not ${column.type}` });
    }
  })
  .meta({ id: 'column', description: "One column of a kind's view: a value of the record's payload, cast to a type." });

export const kindSchema = z
  .strictObject({
    view: sqlIdentifier
      .meta({ description: "The view's name in the analytics schema (default: the kind's name); its history view adds `_history`, its change view `_changes`.", examples: ['listens'] })
      .optional(),
    columns: z.record(sqlIdentifier, columnSchema).describe("The view's columns by name (an SQL identifier), each a value of the record's payload. The record's own columns' names (source, key, first_seen, changed_at, deleted_at, change_seq, valid_from, valid_to) are taken.").default({}),
    indexes: z
      .array(z.union([sqlIdentifier, z.array(sqlIdentifier).min(1)]))
      .meta({
        description:
          "Indexes on the kind's typed table, made by `migrate` and workers (concurrently), dropped when removed here: a column, or a list of columns for one index on them all. Of its columns, or source, key, first_seen, changed_at, change_seq.",
        examples: [['block_number', ['from_address', 'mined_at']]],
      })
      .default([])
      .transform((indexes) => indexes.map((index) => (typeof index === 'string' ? [index] : index))),
  })
  .superRefine((kind, ctx) => {
    for (const name of Object.keys(kind.columns)) {
      if ((RECORD_COLUMNS as readonly string[]).includes(name)) {
        ctx.addIssue({ code: 'custom', path: ['columns', name], message: `names a column every view has already (${RECORD_COLUMNS.join(', ')}): two columns would have one name` });
      }
    }
    if (kind.indexes.length > 0 && Object.keys(kind.columns).length === 0) {
      ctx.addIssue({ code: 'custom', path: ['indexes'], message: 'needs columns: indexes are on the typed table a kind with columns has' });
    }
    const indexable = new Set<string>([...Object.keys(kind.columns), ...INDEXABLE_RECORD_COLUMNS]);
    kind.indexes.forEach((index, at) => {
      for (const column of index) {
        if (!indexable.has(column)) ctx.addIssue({ code: 'custom', path: ['indexes', at], message: `${column} is not a column of this kind (have: ${[...indexable].join(', ')})` });
      }
      if (new Set(index).size !== index.length) ctx.addIssue({ code: 'custom', path: ['indexes', at], message: 'names a column twice' });
    });
    const seen = new Set<string>();
    kind.indexes.forEach((index, at) => {
      const key = index.join(',');
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['indexes', at], message: `repeats the index on (${index.join(', ')})` });
      seen.add(key);
    });
  })
  .meta({ id: 'kind', description: 'The typed view of a record kind, for analysts: see docs/analytics.md.' });

/** The `kinds` section: a kind's name as records.kind writes it. */
export const kindsSectionSchema = z
  .record(notPrototypeName(z.string().regex(/^[a-z][a-z0-9_]*$/, 'kind names must be lower case letters, digits and _')), kindSchema)
  .superRefine((kinds, ctx) => {
    // Two kinds whose views (or their _history and _changes views) would have one name.
    const owners = new Map<string, string>();
    for (const [kind, settings] of Object.entries(kinds)) {
      const view = settings.view ?? kind;
      for (const name of [view, `${view}_history`, `${view}_changes`]) {
        const owner = owners.get(name);
        if (owner !== undefined) ctx.addIssue({ code: 'custom', path: [kind], message: `its view ${name} has the name of a view of kind "${owner}": set kinds.${kind}.view to another name` });
        owners.set(name, kind);
      }
    }
  })
  .describe("Per record kind (its name as `records.kind` writes it), the typed view analysts query: `analytics.<kind>` (live records), `<kind>_changes` (with change_seq and deleted_at, for loaders) and `<kind>_history` (versions kept by `append` mode).")
  .default({});

export const analyticsSchema = z
  .strictObject({
    schema: sqlIdentifier
      .superRefine((schema, ctx) => {
        const problem = reservedSchemaProblem(schema);
        if (problem) ctx.addIssue({ code: 'custom', message: `${schema} ${problem}` });
      })
      .meta({ description: "The Postgres schema of the kinds' views, feedsync's own: it drops the views it made there that the config no longer declares.", examples: ['feeds'] })
      .default('analytics'),
  })
  .meta({ id: 'analytics', description: "Where the kinds' views go." });

/** How a query's records are written: see docs/analytics.md, "Write modes". */
export const WRITE_MODES = ['merge', 'full_refresh', 'append'] as const;
export const writeModeSchema = z.enum(WRITE_MODES, { error: (issue) => `${JSON.stringify(issue.input)} is not a write mode (have: ${WRITE_MODES.join(', ')})` });

export type WriteMode = (typeof WRITE_MODES)[number];
export type KindConfig = z.output<typeof kindSchema>;
export type KindColumn = KindConfig['columns'][string];
export type AnalyticsConfig = z.output<typeof analyticsSchema>;
