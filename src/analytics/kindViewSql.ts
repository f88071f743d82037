import type { KindConfig } from '../config/kindsSchema.js';
import { columnSql, quoteIdent, quoteLiteral } from './columnSql.js';

/** Marks the views feedsync made, so that it replaces and drops only those. */
export const VIEW_COMMENT_PREFIX = 'feedsync view of kind ';

/** One view to create: its name in the analytics schema, its SELECT, and the kind it shows. */
export interface ViewDefinition {
  name: string;
  kind: string;
  select: string;
}

/**
 * The three views of a kind: `<view>` (its live records: deleted ones hidden), `<view>_changes`
 * (every record with its change_seq and deleted_at: what a loader reads `where change_seq > $last`)
 * and `<view>_history` (every version kept by append mode, with valid_from and valid_to).
 */
export function kindViews(kind: string, config: KindConfig): ViewDefinition[] {
  const view = config.view ?? kind;
  const columns = (payload: string): string =>
    Object.entries(config.columns)
      .map(([name, column]) => `${columnSql(column, payload).typed} as ${quoteIdent(name)}`)
      .map((column) => `, ${column}`)
      .join('');
  const ofKind = `kind = ${quoteLiteral(kind)}`;
  return [
    { name: view, kind, select: `select source, key${columns('payload')}, first_seen_at as first_seen, changed_at, change_seq from records where ${ofKind} and deleted_at is null` },
    { name: `${view}_changes`, kind, select: `select source, key${columns('payload')}, first_seen_at as first_seen, changed_at, change_seq, deleted_at from records where ${ofKind}` },
    { name: `${view}_history`, kind, select: `select source, key${columns('payload')}, valid_from, valid_to, change_seq from record_versions where ${ofKind}` },
  ];
}
