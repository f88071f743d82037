import type pg from 'pg';
import type { AnalyticsConfig, KindConfig } from '../config/analytics/kindsSchema.js';
import { inTransaction, type TransactionClient } from '../storage/database/transaction.js';
import { quoteIdent, quoteLiteral } from './columnSql.js';
import { fingerprintOf, kindViews, viewComment, viewMarkOf, type ViewDefinition, type ViewMark } from './kindViewSql.js';
import { readSchemaViews, type SchemaViewRow } from './statements/readSchemaViews.js';
import { takeViewsLock } from './statements/takeViewsLock.js';
import { applyTypedIndexes, typedIndexesOf, type IndexesApplied } from './typedIndexes.js';
import { dropStaleTables, makeTypedTables } from './typedTables.js';
import { typedSchemaOf, typedTableOf } from './typedTableSql.js';
import { applyTypedTrigger } from './typedTrigger.js';

/** Postgres refusing CREATE OR REPLACE VIEW for a column dropped, renamed or retyped. */
const VIEW_SHAPE_CHANGED = new Set(['42P16', '42804']);

/** What applying the views did, view by view. */
export interface ViewsApplied {
  created: string[];
  replaced: string[];
  /** Already as the config has them: left alone. */
  unchanged: string[];
  dropped: string[];
  /** Kinds whose typed table was made (first, or anew for columns changed), filled from their records. */
  typedTablesMade: string[];
  indexes: IndexesApplied;
  /** Without `indexes: true`: the indexes the config asks for that `migrate` would make or drop. */
  indexesPending: IndexesApplied;
}

export interface ApplyKindViewsOptions {
  /** Also make and drop the typed tables' indexes concurrently, as the config lists them (`migrate`); else only say which differ. */
  indexes?: boolean;
}

/** A view in the analytics schema that feedsync did not make: it is never replaced or dropped. */
export class ForeignViewError extends Error {
  override readonly name = 'ForeignViewError';
}

/**
 * Creates or replaces each configured kind's views in the analytics schema, and drops those it
 * made for kinds the config no longer declares, in one transaction: a reader sees the old views
 * or the new ones. A kind with columns gets its typed table first (made, or made anew when its
 * columns changed, from its records: see makeTypedTables), kept by the trigger
 * (applyTypedTrigger); its views read it. Changing columns loses no record: the records hold the
 * payloads. A view or table whose definition is unchanged is not touched: every process start
 * applies the views, and replacing one takes a lock that waits for the analysts' queries on it.
 * Then, outside the transaction and with `indexes`, the configured indexes are made or dropped
 * concurrently (see applyTypedIndexes).
 */
export async function applyKindViews(pool: Pick<pg.Pool, 'connect' | 'query'>, kinds: Readonly<Record<string, KindConfig>>, analytics: AnalyticsConfig, options: ApplyKindViewsOptions = {}): Promise<ViewsApplied> {
  const wanted = Object.entries(kinds).flatMap(([kind, config]) => kindViews(kind, config, analytics.schema));
  const typedSchema = typedSchemaOf(analytics.schema);
  const tables = Object.entries(kinds).flatMap(([kind, config]) => {
    const table = typedTableOf(kind, config, analytics.schema);
    return table ? [{ table, indexes: typedIndexesOf(table, config.indexes) }] : [];
  });
  const indexes = tables.flatMap((typed) => typed.indexes);
  const schema = quoteIdent(analytics.schema);
  const applied = await inTransaction(pool, async (client) => {
    await client.query(takeViewsLock.with({}));
    await client.query(`create schema if not exists ${schema}`);
    const typed = await makeTypedTables(client, typedSchema, tables.map((each) => each.table), indexes);
    const existing = await viewsIn(client, analytics.schema);
    const applied: ViewsApplied = { created: [], replaced: [], unchanged: [], dropped: [], typedTablesMade: typed.made, indexes: { created: typed.indexes, dropped: [] }, indexesPending: { created: [], dropped: [] } };
    for (const view of wanted) {
      const mark = existing.get(view.name);
      if (mark === null) throw new ForeignViewError(`${analytics.schema}.${view.name} exists and was not made by feedsync: rename it, or set kinds.${view.kind}.view to another name`);
      const qualified = `${analytics.schema}.${view.name}`;
      // A view of a typed table made anew reads the old one, renamed aside, until made anew too.
      if (mark?.kind === view.kind && mark.fingerprint === fingerprintOf(view) && !typed.made.includes(view.kind)) {
        applied.unchanged.push(qualified);
        continue;
      }
      await createOrReplace(client, schema, view, mark !== undefined);
      (mark === undefined ? applied.created : applied.replaced).push(qualified);
    }
    const names = new Set(wanted.map((view) => view.name));
    for (const [name, mark] of existing) {
      if (mark === null || names.has(name)) continue;
      await client.query(`drop view ${schema}.${quoteIdent(name)}`);
      applied.dropped.push(`${analytics.schema}.${name}`);
    }
    await applyTypedTrigger(client, typedSchema, tables.map((each) => each.table));
    await dropStaleTables(client, typed.stale);
    return applied;
  });
  const concurrently = await applyTypedIndexes(pool, typedSchema, indexes, options.indexes === true);
  if (options.indexes) applied.indexes = { created: [...applied.indexes.created, ...concurrently.created], dropped: concurrently.dropped };
  else applied.indexesPending = concurrently;
  return applied;
}

/** The schema's views: feedsync's mark for those it made, null for the others. */
async function viewsIn(client: TransactionClient, schema: string): Promise<Map<string, ViewMark | null>> {
  const { rows } = await client.query<SchemaViewRow>(readSchemaViews.with({ schema }));
  return new Map(rows.map(({ name, comment }) => [name, viewMarkOf(comment)]));
}

/** CREATE OR REPLACE keeps dependent views working; when the columns changed shape, the view is dropped and made anew (a dependent view then fails the drop, named by Postgres). */
async function createOrReplace(client: TransactionClient, schema: string, view: ViewDefinition, exists: boolean): Promise<void> {
  const name = `${schema}.${quoteIdent(view.name)}`;
  const create = `create or replace view ${name} as ${view.select}`;
  if (exists) {
    await client.query('savepoint replace_view');
    try {
      await client.query(create);
      await client.query('release savepoint replace_view');
    } catch (error) {
      if (!VIEW_SHAPE_CHANGED.has((error as { code?: string }).code ?? '')) throw error;
      await client.query('rollback to savepoint replace_view');
      await client.query(`drop view ${name}`);
      await client.query(create);
    }
  } else {
    await client.query(create);
  }
  await client.query(`comment on view ${name} is ${quoteLiteral(viewComment(view))}`);
}
