import { NamedStatement } from '../../database/NamedStatement.js';
import { PRUNABLE_RUNS, type PrunableRunsParams } from './prunableRuns.js';

/**
 * What pruning a job would remove, removing nothing: its envelopes the policy lets go, and the
 * bodies only they refer to, with the bodies' bytes.
 */
export const countPrunable = new NamedStatement<PrunableRunsParams>(
  'feedsync_count_prunable_v1',
  `with ${PRUNABLE_RUNS},
    gone as (select e.id, e.content_hash from envelopes e join doomed d on d.id = e.run_id),
    orphaned as (
      select b.content_hash, b.bytes from page_bodies b
      where b.content_hash in (select content_hash from gone)
        and not exists (select 1 from envelopes e where e.content_hash = b.content_hash and e.id not in (select id from gone))
    )
    select (select count(*)::int from doomed) as runs, (select count(*)::int from gone) as envelopes,
      (select count(*)::int from orphaned) as bodies, (select coalesce(sum(bytes), 0)::text from orphaned) as bytes`,
);
