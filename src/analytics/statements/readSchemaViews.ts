import { NamedStatement } from '../../storage/database/NamedStatement.js';

/** A view and its comment, where feedsync keeps its mark (see viewMarkOf). */
export interface SchemaViewRow {
  name: string;
  comment: string | null;
}

/** Every view in a schema, with its comment. */
export const readSchemaViews = new NamedStatement<{ schema: string }>(
  'feedsync_read_schema_views_v1',
  `select c.relname as name, obj_description(c.oid, 'pg_class') as comment from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = :schema::name and c.relkind = 'v'`,
);
