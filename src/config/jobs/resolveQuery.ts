import { createHash } from 'node:crypto';
import type { ForEachConfig } from './forEachSchema.js';
import type { WriteMode } from '../analytics/kindsSchema.js';
import { recordSelectorSchema, type Config, type IncrementalConfig, type JobConfig, type PagingConfig, type QueryConfig, type RecordSelectorConfig, type SourceConfig } from '../schema.js';

/** Everything one sync run needs to know about its query, with job and query overrides applied. */
export interface ResolvedQuery {
  job: string;
  sourceName: string;
  source: SourceConfig;
  queryIndex: number;
  /** Stable across config edits that do not change the query itself; names its incremental cursor. */
  queryKey: string;
  q: string | undefined;
  /** What `$query` stands for in record keys: the fan-out value, or else `q`. */
  subject: string | undefined;
  /** A fan-out query's value for this run (see forEach); undefined for a query without forEach. */
  value: string | undefined;
  forEach: ForEachConfig | undefined;
  /** The request parameter `q` is sent as. */
  qParam: string;
  params: Record<string, string>;
  paging: PagingConfig;
  records: RecordSelectorConfig;
  incremental: IncrementalConfig | undefined;
  /** How its records are written: merge (upsert), full_refresh (and mark deleted what a complete run no longer returns), append (and keep every version). */
  mode: WriteMode;
}

export function findJob(config: Config, name: string): JobConfig {
  const job = config.jobs.find((candidate) => candidate.name === name);
  if (!job) throw new Error(`no job named "${name}" in the config (have: ${config.jobs.map((j) => j.name).join(', ')})`);
  return job;
}

/**
 * A query of a job as one run performs it. A fan-out query (forEach) needs the run's `value`,
 * which becomes its q or the parameter forEach names; each value is a query of its own, with its
 * own queryKey and so its own incremental cursor.
 */
export function resolveQuery(config: Config, job: JobConfig, queryIndex: number, value?: string): ResolvedQuery {
  const query: QueryConfig | undefined = job.queries[queryIndex];
  if (!query) throw new Error(`job "${job.name}" has no query ${queryIndex} (it has ${job.queries.length}, numbered from 0)`);
  const source = config.sources[job.source];
  if (!source) throw new Error(`job "${job.name}" names unknown source "${job.source}"`);
  if ((value === undefined) !== (query.forEach === undefined)) {
    throw new Error(query.forEach ? `query ${queryIndex} of job "${job.name}" fans out (forEach): a run of it needs a value` : `query ${queryIndex} of job "${job.name}" has no forEach: a run of it takes no value`);
  }
  const own = Object.fromEntries(Object.entries(query.params).map(([key, v]) => [key, String(v)]));
  if (value !== undefined && query.forEach?.param !== undefined) own[query.forEach.param] = value;
  const q = value !== undefined && query.forEach?.param === undefined ? value : query.q;
  // The query's own params only: a queryKey (and the incremental cursor it names) survives edits of the shared ones.
  const fingerprint = JSON.stringify([q ?? null, Object.entries(own).sort(([a], [b]) => a.localeCompare(b))]);
  return {
    job: job.name,
    sourceName: job.source,
    source,
    queryIndex,
    queryKey: createHash('sha256').update(fingerprint).digest('hex').slice(0, 16),
    q,
    subject: value ?? q,
    value,
    forEach: query.forEach,
    qParam: query.qParam ?? job.qParam ?? 'q',
    params: { ...source.params, ...job.params, ...own },
    paging: { ...source.paging, ...job.paging, ...query.paging },
    // Parsed again so that the selector's defaults (key, onInvalid) hold where job and query leave them out; the schema's superRefine guarantees path and kind.
    records: recordSelectorSchema.parse({ ...job.records, ...query.records }),
    incremental: query.incremental,
    mode: query.mode ?? job.mode ?? 'merge',
  };
}
