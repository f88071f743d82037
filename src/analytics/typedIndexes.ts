import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { TransactionClient } from '../storage/database/transaction.js';
import { quoteIdent, quoteLiteral } from './columnSql.js';
import type { TypedTable } from './typedTableSql.js';

/** An index a kind's config asks for (`kinds.<kind>.indexes`) on its typed table. */
export interface TypedIndex {
  /** Its table, qualified and quoted. */
  table: string;
  schema: string;
  kind: string;
  columns: readonly string[];
  name: string;
}

/** What applying the indexes did; or, when only looked at, would do. */
export interface IndexesApplied {
  created: string[];
  dropped: string[];
}

const MARK = /^feedsync index of kind [a-z][a-z0-9_]* on \(.*\)$/;

/** The indexes the config asks for on these tables. */
export function typedIndexesOf(table: TypedTable, indexes: readonly (readonly string[])[]): TypedIndex[] {
  return indexes.map((columns) => {
    const readable = `${table.name}_${columns.join('_')}_idx`;
    const name = readable.length <= 63 ? readable : `${table.name.slice(0, 40)}_${createHash('sha256').update(columns.join(',')).digest('hex').slice(0, 12)}_idx`;
    return { table: table.qualified, schema: table.schema, kind: table.kind, columns, name };
  });
}

/** CREATE INDEX for it; `concurrently` on a live table (outside a transaction). */
export function createIndexSql(index: TypedIndex, concurrently: boolean): string {
  return `create index ${concurrently ? 'concurrently ' : ''}${quoteIdent(index.name)} on ${index.table} (${index.columns.map(quoteIdent).join(', ')})`;
}

/** Its comment: feedsync's mark (only indexes it made are ever dropped), with its columns. */
function indexComment(index: TypedIndex): string {
  return `feedsync index of kind ${index.kind} on (${index.columns.join(', ')})`;
}

function indexCommentSql(index: TypedIndex): string {
  return `comment on index ${qualifiedIndex(index.schema, index.name)} is ${quoteLiteral(indexComment(index))}`;
}

const qualifiedIndex = (schema: string, name: string): string => `${quoteIdent(schema)}.${quoteIdent(name)}`;

/** Makes the indexes on a typed table made in this transaction (not yet read by anyone): a plain build, faster than a concurrent one. */
export async function makeIndexesNow(client: TransactionClient, indexes: readonly TypedIndex[]): Promise<void> {
  for (const index of indexes) {
    await client.query(createIndexSql(index, false));
    await client.query(indexCommentSql(index));
  }
}

interface ExistingIndex {
  name: string;
  comment: string | null;
  valid: boolean;
}

/**
 * Makes the configured indexes missing from the typed tables, and drops those feedsync made that
 * the config no longer asks for, each concurrently: writers and readers of the table go on
 * meanwhile. An index a concurrent build left invalid (a build that failed) is built again. Run
 * outside a transaction, after the typed tables are made, by one process at a time (`migrate`:
 * a second concurrent build of one index would take the first's for a failed one). With `apply`
 * false, only says what it would do.
 */
export async function applyTypedIndexes(pool: Pick<pg.Pool, 'query'>, schema: string, wanted: readonly TypedIndex[], apply: boolean): Promise<IndexesApplied> {
  const applied: IndexesApplied = { created: [], dropped: [] };
  const { rows } = await pool.query<ExistingIndex>(
    `select i.relname as name, obj_description(i.oid, 'pg_class') as comment, x.indisvalid as valid
     from pg_index x join pg_class i on i.oid = x.indexrelid
     where i.relnamespace = (select oid from pg_namespace where nspname = $1)`,
    [schema],
  );
  const existing = new Map(rows.map((row) => [row.name, row]));
  for (const index of wanted) {
    const found = existing.get(index.name);
    if (found?.valid && found.comment === indexComment(index)) continue;
    applied.created.push(index.name);
    if (!apply) continue;
    if (found) await pool.query(`drop index concurrently ${qualifiedIndex(schema, index.name)}`);
    await pool.query(createIndexSql(index, true));
    await pool.query(indexCommentSql(index));
  }
  const names = new Set(wanted.map((index) => index.name));
  for (const index of rows) {
    if (names.has(index.name) || index.comment === null || !MARK.test(index.comment)) continue;
    applied.dropped.push(index.name);
    if (apply) await pool.query(`drop index concurrently ${qualifiedIndex(schema, index.name)}`);
  }
  return applied;
}
