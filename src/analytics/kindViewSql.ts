import { createHash } from 'node:crypto';
import type { KindConfig } from '../config/analytics/kindsSchema.js';
import { columnSql, quoteIdent, quoteLiteral } from './columnSql.js';
import { typedTableOf } from './typedTableSql.js';

/** One view to create: its name in the analytics schema, its SELECT, and the kind it shows. */
export interface ViewDefinition {
  name: string;
  kind: string;
  select: string;
}

/** What a view's comment says of it when feedsync made it: the kind, and a fingerprint of its SELECT. */
export interface ViewMark {
  kind: string;
  fingerprint: string | undefined;
}

const MARK = /^feedsync view of kind ([a-z][a-z0-9_]*)(?: \(definition ([0-9a-f]{16})\))?$/;

export function fingerprintOf(view: ViewDefinition): string {
  return createHash('sha256').update(view.select).digest('hex').slice(0, 16);
}

/**
 * The comment that marks a view as feedsync's (so it replaces and drops only those) and says
 * which definition it has (so an unchanged view is left alone, without DDL or its lock).
 */
export function viewComment(view: ViewDefinition): string {
  return `feedsync view of kind ${view.kind} (definition ${fingerprintOf(view)})`;
}

/** The mark a view's comment holds; null for a view feedsync did not make. */
export function viewMarkOf(comment: string | null): ViewMark | null {
  const match = comment === null ? null : MARK.exec(comment);
  return match ? { kind: match[1]!, fingerprint: match[2] } : null;
}

/**
 * The three views of a kind: `<view>` (its live records: deleted ones hidden), `<view>_changes`
 * (every record with its change_seq and deleted_at: what a loader reads `where change_seq > $last`)
 * and `<view>_history` (every version kept by append mode, with valid_from and valid_to). For a
 * kind with columns the first reads its typed table; the others read and cast as they go.
 */
export function kindViews(kind: string, config: KindConfig, viewsSchema: string): ViewDefinition[] {
  const view = config.view ?? kind;
  const columns = (payload: string): string =>
    Object.entries(config.columns)
      .map(([name, column]) => `${columnSql(column, payload).typed} as ${quoteIdent(name)}`)
      .map((column) => `, ${column}`)
      .join('');
  const ofKind = `kind = ${quoteLiteral(kind)}`;
  const history = { name: `${view}_history`, kind, select: `select source, key${columns('payload')}, valid_from, valid_to, change_seq from record_versions where ${ofKind}` };
  // What a loader reads from its last change_seq on: records' change index serves it, deleted records included.
  const changes = { name: `${view}_changes`, kind, select: `select source, key${columns('payload')}, first_seen_at as first_seen, changed_at, change_seq, deleted_at from records where ${ofKind}` };
  const typed = typedTableOf(kind, config, viewsSchema);
  if (typed) {
    // The live records' columns cast as written (see typedTableSql): the view reads them as a table.
    const named = typed.columns.map(([name]) => `, ${quoteIdent(name)}`).join('');
    return [{ name: view, kind, select: `select source, key${named}, first_seen, changed_at, change_seq from ${typed.qualified}` }, changes, history];
  }
  return [
    { name: view, kind, select: `select source, key${columns('payload')}, first_seen_at as first_seen, changed_at, change_seq from records where ${ofKind} and deleted_at is null` },
    changes,
    history,
  ];
}
