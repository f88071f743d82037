import type pg from 'pg';
import type { AnalyticsConfig, KindConfig } from '../config/analytics/kindsSchema.js';
import { inTransaction, type TransactionClient } from '../storage/database/transaction.js';
import { quoteIdent, quoteLiteral } from './columnSql.js';
import { fingerprintOf, kindViews, viewComment, viewMarkOf, type ViewDefinition, type ViewMark } from './kindViewSql.js';
import { readSchemaViews, type SchemaViewRow } from './statements/readSchemaViews.js';
import { takeViewsLock } from './statements/takeViewsLock.js';

/** Postgres refusing CREATE OR REPLACE VIEW for a column dropped, renamed or retyped. */
const VIEW_SHAPE_CHANGED = new Set(['42P16', '42804']);

/** What applying the views did, view by view. */
export interface ViewsApplied {
  created: string[];
  replaced: string[];
  /** Already as the config has them: left alone. */
  unchanged: string[];
  dropped: string[];
}

/** A view in the analytics schema that feedsync did not make: it is never replaced or dropped. */
export class ForeignViewError extends Error {
  override readonly name = 'ForeignViewError';
}

/**
 * Creates or replaces each configured kind's views in the analytics schema, and drops those it
 * made for kinds the config no longer declares, in one transaction: a reader sees the old views
 * or the new ones. Views hold no data, so changing their columns loses no record. A view whose
 * definition is unchanged is not touched: every process start applies the views, and replacing
 * one takes a lock that waits for the analysts' queries on it.
 */
export async function applyKindViews(pool: Pick<pg.Pool, 'connect'>, kinds: Readonly<Record<string, KindConfig>>, analytics: AnalyticsConfig): Promise<ViewsApplied> {
  const wanted = Object.entries(kinds).flatMap(([kind, config]) => kindViews(kind, config));
  const schema = quoteIdent(analytics.schema);
  return inTransaction(pool, async (client) => {
    await client.query(takeViewsLock.with({}));
    await client.query(`create schema if not exists ${schema}`);
    const existing = await viewsIn(client, analytics.schema);
    const applied: ViewsApplied = { created: [], replaced: [], unchanged: [], dropped: [] };
    for (const view of wanted) {
      const mark = existing.get(view.name);
      if (mark === null) throw new ForeignViewError(`${analytics.schema}.${view.name} exists and was not made by feedsync: rename it, or set kinds.${view.kind}.view to another name`);
      const qualified = `${analytics.schema}.${view.name}`;
      if (mark?.kind === view.kind && mark.fingerprint === fingerprintOf(view)) {
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
    return applied;
  });
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
