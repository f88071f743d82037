import type { TransactionClient } from '../storage/database/transaction.js';
import { quoteIdent, quoteLiteral } from './columnSql.js';
import { makeIndexesNow, type TypedIndex } from './typedIndexes.js';
import { createTypedTableSql, typedColumnNames, typedRowsSelect, typedTableComment, typedTableMarkOf, type TypedTable } from './typedTableSql.js';

/** A table of the typed tables' name that feedsync did not make: it is never replaced or dropped. */
export class ForeignTableError extends Error {
  override readonly name = 'ForeignTableError';
}

/** The typed tables made, and those to drop once nothing reads them (see dropStaleTables). */
export interface TypedTablesMade {
  /** Kinds whose typed table was made in this transaction: their views are made anew. */
  made: string[];
  /** Indexes made on those tables. */
  indexes: string[];
  stale: string[];
}

/**
 * Makes each typed table that is missing or has another definition, filled from the kind's
 * records, with its configured indexes. Writers of the kind wait meanwhile (a SHARE lock on its
 * partition of `records`), so that no write falls between the fill and the trigger that keeps
 * the table; writers of other kinds do not. A table being replaced is renamed aside, to be
 * dropped after the views that read it are made anew.
 */
export async function makeTypedTables(client: TransactionClient, schema: string, tables: readonly TypedTable[], indexes: readonly TypedIndex[]): Promise<TypedTablesMade> {
  if (tables.length > 0) await client.query(`create schema if not exists ${quoteIdent(schema)}`);
  const { rows } = await client.query<{ name: string; comment: string | null }>(
    `select relname as name, obj_description(oid, 'pg_class') as comment from pg_class where relnamespace = (select oid from pg_namespace where nspname = $1) and relkind = 'r'`,
    [schema],
  );
  const existing = new Map(rows.map((row) => [row.name, typedTableMarkOf(row.comment)]));
  const result: TypedTablesMade = { made: [], indexes: [], stale: [] };
  for (const table of tables) {
    const mark = existing.get(table.name);
    if (mark === null) throw new ForeignTableError(`${schema}.${table.name} exists and was not made by feedsync: feedsync keeps the typed tables of its views in ${schema}; move it elsewhere`);
    if (mark?.fingerprint === table.fingerprint) continue;
    await client.query(`select feedsync_records_partition($1)`, [table.kind]);
    const { rows: part } = await client.query<{ name: string }>(`select feedsync_records_partition_name($1) as name`, [table.kind]);
    await client.query(`lock table ${quoteIdent(part[0]!.name)} in share mode`);
    if (mark !== undefined) {
      // Not a name a kind's table can have.
      const aside = `replaced_${mark.fingerprint}`;
      await client.query(`alter table ${table.qualified} rename to ${quoteIdent(aside)}`);
      result.stale.push(`${quoteIdent(schema)}.${quoteIdent(aside)}`);
    }
    await client.query(createTypedTableSql(table));
    await client.query(`comment on table ${table.qualified} is ${quoteLiteral(typedTableComment(table))}`);
    await client.query(`insert into ${table.qualified} (${typedColumnNames(table)}) ${typedRowsSelect(table, 'records')}`);
    const tableIndexes = indexes.filter((index) => index.table === table.qualified);
    await makeIndexesNow(client, tableIndexes);
    result.indexes.push(...tableIndexes.map((index) => index.name));
    await client.query(`analyze ${table.qualified}`);
    result.made.push(table.kind);
  }
  const wanted = new Set(tables.map((table) => table.name));
  for (const [name, mark] of existing) if (mark !== null && !wanted.has(name)) result.stale.push(`${quoteIdent(schema)}.${quoteIdent(name)}`);
  return result;
}

/** Drops typed tables no longer wanted (qualified names), once no view and no trigger reads them. */
export async function dropStaleTables(client: TransactionClient, stale: readonly string[]): Promise<void> {
  for (const table of stale) await client.query(`drop table ${table}`);
}
