import type { ConfigProblem } from './ConfigError.js';
import type { Config } from './schema.js';
import { mixedKeyWarnings } from './records/kindKeys.js';
import { secretParamWarnings } from './sources/secretParams.js';

interface JobKinds {
  records?: { kind?: unknown };
  queries?: readonly { records?: { kind?: unknown } }[];
}

/** Every record kind some query of the config stores; read from a validated config or a raw tree alike (a value that is not text is no kind). */
export function producedKinds(jobs: readonly JobKinds[]): Set<string> {
  const kinds = new Set<string>();
  for (const job of jobs) {
    for (const query of job.queries ?? []) {
      const kind = query.records?.kind ?? job.records?.kind;
      if (typeof kind === 'string') kinds.add(kind);
    }
  }
  return kinds;
}

/**
 * Settings that work but are likely a mistake: reported, never refused. Credentials put in params,
 * and kinds keyed two ways, are looked for when the config at hand has its sources and jobs (not
 * the analytics sections alone).
 */
export function configWarnings(config: Pick<Config, 'kinds'> & Partial<Pick<Config, 'sources' | 'jobs'>>, produced: ReadonlySet<string>): ConfigProblem[] {
  const unstored = Object.keys(config.kinds)
    .filter((kind) => !produced.has(kind))
    .map((kind) => ({ path: `kinds.${kind}`, message: `no job stores records of kind "${kind}" (stored kinds: ${[...produced].sort().join(', ') || 'none'}); its view will stay empty` }));
  const { sources, jobs } = config;
  return sources && jobs ? [...unstored, ...secretParamWarnings({ sources, jobs }), ...mixedKeyWarnings(jobs)] : unstored;
}
