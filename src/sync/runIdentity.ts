import type { ResolvedQuery } from '../config/jobs/resolveQuery.js';
import { maskedParams } from '../config/sources/secretParams.js';
import type { RunIdentity } from '../storage/runs/runState.js';

/** What only a run's caller knows of it: its id chosen up front, its schedule and tick. */
export type RunCircumstances = Pick<RunIdentity, 'id' | 'scheduledFor' | 'tickId'>;

/** Who a run of `query` is under `runKey`, as it is claimed and recorded: the query as sent (a credential put in params masked) and its fan-out value. */
export function runIdentityOf(query: ResolvedQuery, runKey: string, circumstances: RunCircumstances = {}): RunIdentity {
  return {
    ...circumstances,
    runKey,
    job: query.job,
    source: query.sourceName,
    queryIndex: query.queryIndex,
    queryKey: query.queryKey,
    query: { q: query.q ?? null, params: maskedParams(query.params) },
    value: query.value,
  };
}
