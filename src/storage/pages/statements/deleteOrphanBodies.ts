import { NamedStatement } from '../../database/NamedStatement.js';

export interface DeleteOrphanBodiesParams {
  /** The bodies after this hash are looked at, in hash order, `limit` at a time. */
  after: string;
  limit: number;
}

/**
 * Deletes the bodies among the next `limit` (by hash) that no envelope refers to; returns the
 * last hash looked at, and what went. A body an envelope comes to refer to meanwhile is kept:
 * the foreign key refuses its delete (the batch is then tried again).
 */
export const deleteOrphanBodies = new NamedStatement<DeleteOrphanBodiesParams>(
  'feedsync_delete_orphan_bodies_v1',
  `with looked as (
      select content_hash from page_bodies where content_hash > :after::text order by content_hash limit :limit::int
    ),
    deleted as (
      delete from page_bodies b using looked l
      where b.content_hash = l.content_hash and not exists (select 1 from envelopes e where e.content_hash = b.content_hash)
      returning b.bytes
    )
    select (select max(content_hash) from looked) as last, (select count(*)::int from deleted) as bodies, (select coalesce(sum(bytes), 0)::text from deleted) as bytes`,
);
