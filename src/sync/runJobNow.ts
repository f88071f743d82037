import { randomUUID } from 'node:crypto';
import { findJob, resolveQuery } from '../config/resolveQuery.js';
import type { Config } from '../config/schema.js';
import type { RunIdentity } from '../storage/runState.js';
import { inProcessRunKey } from './runKeys.js';
import type { SourceRegistry } from './SourceRegistry.js';
import { syncQuery, type RunSummary, type SyncQueryOptions } from './syncQuery.js';

export type RunJobOptions = Omit<SyncQueryOptions, 'client' | 'gate'> & { sources: SourceRegistry };

/** The identity of a manual ("sync now") run, queued or in this process: a fresh key, so it always runs. */
export function manualRunIdentity(config: Config, job: string, queryIndex: number, keyOf: (job: string, queryIndex: number, runId: string) => string): RunIdentity {
  const query = resolveQuery(config, findJob(config, job), queryIndex);
  const id = randomUUID();
  return {
    id,
    runKey: keyOf(job, queryIndex, id),
    job,
    source: query.sourceName,
    queryIndex,
    queryKey: query.queryKey,
    query: { q: query.q ?? null, params: query.params },
  };
}

/** Runs a job's queries (or one of them) now, in this process, one after another. */
export async function runJobNow(config: Config, jobName: string, queryIndex: number | undefined, options: RunJobOptions): Promise<RunSummary[]> {
  const job = findJob(config, jobName);
  const indexes = queryIndex === undefined ? job.queries.map((_, index) => index) : [queryIndex];
  const summaries: RunSummary[] = [];
  for (const index of indexes) {
    const query = resolveQuery(config, job, index);
    summaries.push(
      await syncQuery(query, manualRunIdentity(config, jobName, index, inProcessRunKey), {
        ...options,
        client: options.sources.client(query.sourceName),
        gate: options.sources.gate(query.sourceName),
      }),
    );
  }
  return summaries;
}
