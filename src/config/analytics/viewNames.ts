import type { z } from 'zod';

/**
 * feedsync's tables in schema public (its migrations' own sit in schema drizzle). Each of their
 * indexes and sequences is named after its table, `<table>_…`: test/config/analytics/viewNames.integration.test.ts
 * checks that against a migrated database.
 */
export const FEEDSYNC_TABLES = ['composite_key_rekeys', 'dead_letters', 'envelopes', 'full_refresh_keys', 'incremental_cursors', 'job_ticks', 'notice_attempts', 'notices', 'page_bodies', 'record_versions', 'records', 'sync_runs'] as const;

/** Where feedsync's tables live, and where its migrations keep their journal. */
const TABLES_SCHEMA = 'public';
const MIGRATIONS_SCHEMA = 'drizzle';

/** Why a schema cannot hold the kinds' views (Postgres's own, or feedsync's migrations'); undefined when it can. */
export function reservedSchemaProblem(schema: string): string | undefined {
  if (schema.startsWith('pg_') || schema === 'information_schema') return `is a schema of Postgres itself (pg_catalog, pg_toast, pg_temp…, information_schema): the views cannot be made there; use a schema of feedsync's, e.g. analytics`;
  if (schema === MIGRATIONS_SCHEMA) return `is where feedsync's migrations keep their journal: use another schema, e.g. analytics`;
  return undefined;
}

/** Whether a relation named so could be one of feedsync's (a table, or one of its indexes or sequences). */
export function isFeedsyncRelation(name: string): boolean {
  return FEEDSYNC_TABLES.some((table) => name === table || name.startsWith(`${table}_`));
}

interface ViewPlacement {
  kinds: Record<string, { view?: string }>;
  analytics: { schema: string };
}

/** With the views in public, a kind's view (or its _history or _changes view) named as a feedsync table or index would fail at `feedsync migrate`. */
export function refineViewNames({ kinds, analytics }: ViewPlacement, ctx: z.RefinementCtx): void {
  if (analytics.schema !== TABLES_SCHEMA) return;
  for (const [kind, settings] of Object.entries(kinds)) {
    const view = settings.view ?? kind;
    const taken = [view, `${view}_history`, `${view}_changes`].find(isFeedsyncRelation);
    if (taken === undefined) continue;
    ctx.addIssue({
      code: 'custom',
      path: ['kinds', kind, ...(settings.view === undefined ? [] : ['view'])],
      message: `its view ${taken} would take the name of one of feedsync's tables or indexes in schema public (${FEEDSYNC_TABLES.join(', ')}, and <table>_…): set kinds.${kind}.view, or keep analytics.schema apart from public`,
    });
  }
}
