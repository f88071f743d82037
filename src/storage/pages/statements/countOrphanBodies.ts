import { NamedStatement } from '../../database/NamedStatement.js';

/**
 * The bodies no envelope refers to already, and their bytes: what the orphan sweep removes on any
 * prune, whatever the policies (left by a prune that stopped half-way, or by an earlier feedsync
 * that stored bodies ahead of their pages). Reads every body's row, not its text.
 */
export const countOrphanBodies = new NamedStatement<Record<string, never>>(
  'feedsync_count_orphan_bodies_v1',
  `select count(*)::int as bodies, coalesce(sum(b.bytes), 0)::text as bytes
    from page_bodies b
    where not exists (select 1 from envelopes e where e.content_hash = b.content_hash)`,
);
