import type { ConfigProblem } from '../ConfigError.js';
import type { Config } from '../schema.js';

/** Masks a credential's value wherever a request URL or query is shown or stored. */
export const MASKED = '***';

/** Parameter names that carry credentials, lower case with `-` and `_` left out. */
const SECRET_NAMES = new Set(['key', 'apikey', 'apitoken', 'apisecret', 'accesskey', 'accesstoken', 'authtoken', 'token', 'secret', 'clientsecret', 'signature', 'password', 'passwd']);

/** Whether a request parameter of this name carries a credential (`api_key`, `Access-Token`, `secret`, …). */
export function isSecretParam(name: string): boolean {
  return SECRET_NAMES.has(name.toLowerCase().replace(/[-_]/g, ''));
}

/** `params` with the value of each credential masked: what a stored or shown query holds. */
export function maskedParams(params: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(params).map(([name, value]) => [name, isSecretParam(name) ? MASKED : value]));
}

/** Each `params` block of a config (sources', jobs' and queries'), with its path. */
function paramBlocks(config: Pick<Config, 'sources' | 'jobs'>): { path: string; params: Readonly<Record<string, unknown>> }[] {
  return [
    ...Object.entries(config.sources).map(([name, source]) => ({ path: `sources.${name}.params`, params: source.params })),
    ...config.jobs.flatMap((job, index) => [
      { path: `jobs[${index}].params`, params: job.params },
      ...job.queries.map((query, queryIndex) => ({ path: `jobs[${index}].queries[${queryIndex}].params`, params: query.params })),
    ]),
  ];
}

/** The values of the config's credential params: secrets, scrubbed like a source's key. */
export function secretParamValues(config: Pick<Config, 'sources' | 'jobs'>): string[] {
  return paramBlocks(config).flatMap(({ params }) =>
    Object.entries(params)
      .filter(([name]) => isSecretParam(name))
      .map(([, value]) => String(value)),
  );
}

/** A warning for each credential put in `params`: it works, masked, but `auth` is where it belongs. */
export function secretParamWarnings(config: Pick<Config, 'sources' | 'jobs'>): ConfigProblem[] {
  return paramBlocks(config).flatMap(({ path, params }) =>
    Object.keys(params)
      .filter(isSecretParam)
      .map((name) => ({
        path: `${path}.${name}`,
        message: `looks like a credential: put it in the source's auth instead (auth: {type: query, name: ${name}, value: …}); as a param its value is masked in stored request URLs and queries`,
      })),
  );
}
