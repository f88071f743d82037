import type { z } from 'zod';
import type { Config, PagingConfig, QueryConfig, SourceConfig } from './schema.js';
import { refineViewNames } from './analytics/viewNames.js';

/** A problem found by comparing settings; `path` is where it is reported, the message names the other setting. */
interface Inconsistency {
  path: (string | number)[];
  message: string;
}

/** Settings that each pass on their own but not together: each reported with both paths. */
export function reportInconsistencies(config: Config, ctx: z.RefinementCtx): void {
  const found = [...Object.entries(config.sources).flatMap(([name, source]) => sourceProblems(name, source)), ...jobProblems(config)];
  for (const { path, message } of found) ctx.addIssue({ code: 'custom', path, message });
  refineViewNames(config, ctx);
}

function sourceProblems(name: string, source: SourceConfig): Inconsistency[] {
  const at = ['sources', name];
  const problems: Inconsistency[] = [];
  // The API key goes with every request: a path such as //host or /\host must not carry it elsewhere.
  const origin = URL.canParse(source.baseUrl) ? new URL(source.baseUrl).origin : undefined;
  const target = origin && URL.canParse(source.path, source.baseUrl) ? new URL(source.path, source.baseUrl).origin : undefined;
  if (origin && target !== origin) {
    problems.push({ path: [...at, 'path'], message: `leads to ${target ?? 'no valid URL'}, not to the origin of sources.${name}.baseUrl (${origin}); the API key would go there` });
  }
  return problems;
}

function jobProblems(config: Config): Inconsistency[] {
  const problems: Inconsistency[] = [];
  const names = new Set<string>();
  config.jobs.forEach((job, index) => {
    if (!(job.source in config.sources)) {
      problems.push({ path: ['jobs', index, 'source'], message: `"${job.source}" is not a configured source (have: ${Object.keys(config.sources).join(', ') || 'none'})` });
    }
    if (names.has(job.name)) problems.push({ path: ['jobs', index, 'name'], message: `"${job.name}" is used by another job` });
    names.add(job.name);
    const source = config.sources[job.source];
    job.queries.forEach((query, queryIndex) => {
      const at = ['jobs', index, 'queries', queryIndex];
      if (source) {
        const paging = { ...source.paging, ...job.paging, ...query.paging };
        for (const message of pagingProblems(paging)) problems.push({ path: [...at, 'paging'], message });
      }
      for (const problem of forEachProblems(config, query)) problems.push({ path: [...at, 'forEach', ...problem.path], message: problem.message });
      if ((query.mode ?? job.mode) === 'full_refresh' && query.forEach?.kind !== undefined) {
        const message = `full_refresh marks deleted what a value's last complete run returned and this one did not; over values read from stored records (forEach.kind) the list is not stable, so a value that drops out would never be refreshed: use forEach.values, or mode merge`;
        problems.push({ path: [...at, query.mode === undefined ? 'forEach' : 'mode'], message });
      }
      const records = { ...job.records, ...query.records };
      for (const field of ['path', 'kind'] as const) {
        if (records[field] === undefined) problems.push({ path: [...at, 'records', field], message: `is required (set it on the query or on the job)` });
      }
    });
  });
  return problems;
}

/** A fan-out whose value would overwrite the query's own q, or that reads another source that does not exist. */
function forEachProblems(config: Config, query: QueryConfig): Inconsistency[] {
  const forEach = query.forEach;
  if (!forEach) return [];
  const problems: Inconsistency[] = [];
  if (forEach.param === undefined && query.q !== undefined) {
    problems.push({ path: [], message: 'gives each run its q, and the query sets q too: drop q, or set forEach.param to send the value as another parameter' });
  }
  if (forEach.source !== undefined && !(forEach.source in config.sources)) {
    problems.push({ path: ['source'], message: `"${forEach.source}" is not a configured source (have: ${Object.keys(config.sources).join(', ')})` });
  }
  return problems;
}

/** Combinations of paging settings that would fail or stop early at run time. */
function pagingProblems(paging: PagingConfig): string[] {
  const problems: string[] = [];
  if (paging.style === 'cursor' && !paging.cursorPath) problems.push('style "cursor" needs cursorPath (where the next cursor sits in data)');
  if (paging.style === 'next_url' && !paging.nextUrlPath) problems.push('style "next_url" needs nextUrlPath (where the next page\'s URL sits in data)');
  if (paging.window && paging.style !== 'page' && paging.style !== 'offset') problems.push(`a result window slides page or offset paging, not ${paging.style} paging`);
  if (paging.window && paging.stopAtTotal) problems.push('stopAtTotal cannot go with a result window: the total changes as the window slides');
  if (paging.window && paging.totalPagesPath) problems.push('totalPagesPath cannot go with a result window: the page count changes as the window slides, and the run would stop after the first window\'s count');
  if (paging.window && paging.limit > paging.window.maxResults) problems.push(`limit ${paging.limit} exceeds window.maxResults ${paging.window.maxResults}`);
  return problems;
}

/**
 * A retry the schedule lists but NoticeOutbox would never make: it gives a notice up once its
 * age plus the next wait passes `giveUpAfterMs`, and the age at retry n is the sum of the waits
 * before it (jitter aside). Only the first such retry is reported; the later ones follow from it.
 */
export function unreachableRetry(retryScheduleMs: readonly number[], giveUpAfterMs: number): Inconsistency | undefined {
  let waited = 0;
  for (const [index, waitMs] of retryScheduleMs.entries()) {
    waited += waitMs;
    if (waited > giveUpAfterMs) {
      const message =
        index === 0
          ? `waits ${waited} ms, longer than webhook.giveUpAfterMs (${giveUpAfterMs}): the notice would be given up and never retried`
          : `brings retry ${index + 1} to ${waited} ms after the first attempt, later than webhook.giveUpAfterMs (${giveUpAfterMs}): it would never be made`;
      return { path: ['retryScheduleMs', index], message };
    }
  }
  return undefined;
}
