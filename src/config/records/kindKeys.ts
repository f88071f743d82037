import type { ConfigProblem } from '../ConfigError.js';
import type { JobConfig } from '../schema.js';

/** The keys a (source, kind) is written with: each key, as its list of parts in JSON, with the queries keyed by it. */
export interface KindKeys {
  source: string;
  kind: string;
  keys: Map<string, string[]>;
}

/** Every (source, kind) some query writes, with the keys its queries give it (a one-part key as a list of one). */
export function keysOfKinds(jobs: readonly JobConfig[]): KindKeys[] {
  const kinds = new Map<string, KindKeys>();
  jobs.forEach((job, jobIndex) => {
    job.queries.forEach((query, queryIndex) => {
      const records = { ...job.records, ...query.records };
      if (records.kind === undefined) return;
      const key = records.key ?? 'id';
      const id = `${job.source}\u0000${records.kind}`;
      const kind = kinds.get(id) ?? { source: job.source, kind: records.kind, keys: new Map<string, string[]>() };
      const spec = JSON.stringify(Array.isArray(key) ? key : [key]);
      kind.keys.set(spec, [...(kind.keys.get(spec) ?? []), `jobs[${jobIndex}].queries[${queryIndex}]`]);
      kinds.set(id, kind);
    });
  });
  return [...kinds.values()];
}

/** A kind written with different keys: a one-part key "a|b" and the parts [a, b] are one `records.key`, and so are two keys' values that happen to agree. */
export function mixedKeyWarnings(jobs: readonly JobConfig[]): ConfigProblem[] {
  return keysOfKinds(jobs)
    .filter((kind) => kind.keys.size > 1)
    .map(({ source, kind, keys }) => {
      const [first, ...others] = [...keys].map(([spec, queries]) => `${spec} (${queries.join(', ')})`);
      return {
        path: `jobs: kind "${kind}" of source "${source}"`,
        message: `is keyed by ${first} and by ${others.join(' and by ')}: records keyed one way can take the keys of records keyed the other; give each key a kind of its own`,
      };
    });
}
