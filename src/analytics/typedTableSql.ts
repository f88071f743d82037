import { createHash } from 'node:crypto';
import type { KindColumn, KindConfig } from '../config/analytics/kindsSchema.js';
import { columnSql, quoteIdent, quoteLiteral } from './columnSql.js';

/**
 * A kind's typed table: its live records' columns cast once, as they are written, rather than at
 * every query of its view (see docs/analytics.md, "Typed tables"). One row a record of the kind
 * not marked deleted, keyed by the record's change_seq: unique, drawn anew at each change, and
 * rising, so its index grows at its right edge (a digest key would take a random leaf a row).
 * Kept by triggers on `records` (see typedTrigger) in the transaction that writes the records.
 */
export interface TypedTable {
  kind: string;
  /** Its schema: the views' schema's typed schema (see typedSchemaOf). */
  schema: string;
  /** Its name there: the kind's, or a digest of a kind too long for a name. */
  name: string;
  /** Schema and name, quoted. */
  qualified: string;
  columns: [string, KindColumn][];
  /** Of its definition (columns, paths, types): a table of another fingerprint is made anew. */
  fingerprint: string;
}

/** The columns a typed table holds from the record row, before the kind's own; `change_seq` is its key. */
export const TYPED_RECORD_COLUMNS = ['source', 'key', 'first_seen', 'changed_at', 'change_seq'] as const;

/** Where each comes from in a row of `records`. */
const FROM_RECORD: Record<(typeof TYPED_RECORD_COLUMNS)[number], string> = {
  source: 'source',
  key: 'key',
  first_seen: 'first_seen_at',
  changed_at: 'changed_at',
  change_seq: 'change_seq',
};

const RECORD_COLUMN_TYPES: Record<(typeof TYPED_RECORD_COLUMNS)[number], string> = {
  source: 'text not null',
  key: 'text not null',
  first_seen: 'timestamptz not null',
  changed_at: 'timestamptz not null',
  change_seq: 'bigint not null primary key',
};

/** The schema of the typed tables behind the views of `viewsSchema`: `<viewsSchema>_typed`, so that each views' schema has its own. */
export function typedSchemaOf(viewsSchema: string): string {
  return `${viewsSchema}_typed`;
}

/** The kind's typed table behind the views in `viewsSchema`; none for a kind without columns (its views read `records`). */
export function typedTableOf(kind: string, config: KindConfig, viewsSchema: string): TypedTable | undefined {
  const columns = Object.entries(config.columns);
  if (columns.length === 0) return undefined;
  const fingerprint = createHash('sha256').update(JSON.stringify([kind, columns])).digest('hex').slice(0, 16);
  const schema = typedSchemaOf(viewsSchema);
  const name = kind.length <= 48 ? kind : `kind_${createHash('md5').update(kind).digest('hex').slice(0, 24)}`;
  return { kind, schema, name, qualified: `${quoteIdent(schema)}.${quoteIdent(name)}`, columns, fingerprint };
}

/** The comment that marks a typed table as feedsync's, with its kind and fingerprint. */
export function typedTableComment(table: TypedTable): string {
  return `feedsync typed table of kind ${table.kind} (definition ${table.fingerprint})`;
}

const MARK = /^feedsync typed table of kind ([a-z][a-z0-9_]*) \(definition ([0-9a-f]{16})\)$/;

/** The kind and fingerprint a typed table's comment holds; null for a table feedsync did not make. */
export function typedTableMarkOf(comment: string | null): { kind: string; fingerprint: string } | null {
  const match = comment === null ? null : MARK.exec(comment);
  return match ? { kind: match[1]!, fingerprint: match[2]! } : null;
}

/** CREATE TABLE for the kind's typed table. */
export function createTypedTableSql(table: TypedTable): string {
  const columns = [
    ...TYPED_RECORD_COLUMNS.map((column) => `${column} ${RECORD_COLUMN_TYPES[column]}`),
    ...table.columns.map(([column, config]) => `${quoteIdent(column)} ${config.type}`),
  ];
  return `create table ${table.qualified} (${columns.join(', ')})`;
}

/** The typed table's columns, in order. */
export function typedColumnNames(table: TypedTable): string {
  return [...TYPED_RECORD_COLUMNS, ...table.columns.map(([column]) => quoteIdent(column))].join(', ');
}

/** The typed table's row of each live row of `rows` (rows of `records`) of the kind: record columns as they are, the kind's cast from the payload. */
export function typedRowsSelect(table: TypedTable, rows: string): string {
  const values = [
    ...TYPED_RECORD_COLUMNS.map((column) => FROM_RECORD[column]),
    ...table.columns.map(([, config]) => columnSql(config, 'payload').typed),
  ];
  return `select ${values.join(', ')} from ${rows} where kind = ${quoteLiteral(table.kind)} and deleted_at is null`;
}

/** Inserts the typed rows of `rows` (the transition table of an insert into `records`: records new to it, so to the typed table too). */
export function insertTypedRowsSql(table: TypedTable, rows: string): string {
  return `insert into ${table.qualified} (${typedColumnNames(table)})
      ${typedRowsSelect(table, rows)}`;
}

/** Deletes the typed rows of the records in `old` (the old rows of an update of `records`): each update draws a new change_seq, and its live rows are inserted anew. */
export function deleteOldRowsSql(table: TypedTable, old: string): string {
  return `delete from ${table.qualified} t using ${old} o where o.kind = ${quoteLiteral(table.kind)} and t.change_seq = o.change_seq`;
}
