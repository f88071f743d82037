import { NamedStatement } from '../../database/NamedStatement.js';
import { PRUNABLE_RUNS, type PrunableRunsParams } from './prunableRuns.js';

/** Deletes the envelopes of a batch of runs the policy lets go; returns how many and their bytes. */
export const deletePrunableEnvelopes = new NamedStatement<PrunableRunsParams>(
  'feedsync_delete_prunable_envelopes_v1',
  `with ${PRUNABLE_RUNS},
    deleted as (delete from envelopes e using doomed d where e.run_id = d.id returning e.bytes)
    select count(*)::int as envelopes, coalesce(sum(bytes), 0)::text as bytes from deleted`,
);
