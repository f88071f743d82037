import { expect, it } from 'vitest';
import type { ResolvedQuery } from '../../src/config/jobs/resolveQuery.js';
import type { Config } from '../../src/config/schema.js';
import { joinKeyParts } from '../../src/paging/compositeKey.js';
import type { RunSummary } from '../../src/sync/syncQuery.js';
import { realBody, recordedJson } from './realBodies.js';
import type { ReplayRoute } from './replayUpstream.js';
import { replayRun } from './replaySync.js';
import type { TestDatabase } from './testDatabase.js';

/** The value at a dot path of parsed JSON (`.`: the value itself): plain navigation, for what a test expects. */
export const at = (value: unknown, path: string): unknown =>
  path === '.' ? value : path.split('.').reduce<unknown>((inner, name) => (inner as Record<string, unknown> | undefined)?.[name], value);

/** The request parameters that name a recorded body's method: Last.fm's `method`, Etherscan's `module` and `action`. */
export function methodParams(file: string): Record<string, string> {
  const { service, method } = realBody(file);
  if (service === 'lastfm') return { method };
  const [module, action] = method.split('.') as [string, string];
  return { module, action };
}

/** Routes that answer a run with recorded bodies: page n with the n-th of `files`, or every page with the one file. */
export function pageRoutes(files: readonly string[]): ReplayRoute[] {
  if (files.length === 1) return [{ when: methodParams(files[0]!), file: files[0]! }];
  return files.map((file, index) => ({ when: { ...methodParams(file), page: String(index + 1) }, file }));
}

/** A run of an example's query against recorded bodies, and what a user of the real service expects of it. */
export interface RecordedRun {
  /** The bodies, page by page. */
  files: string[];
  query: (config: Config) => ResolvedQuery;
  /** Where, in each body, the items sit that a user expects stored: a list, or one item (`.` for the whole body). */
  items: string;
  /** Each item's key: its fields, or `$query`. */
  key: string[];
  /** How the run ends: its status and why paging stopped. */
  ends: [status: RunSummary['status'], stopReason: string];
}

/** The records a user expects from a recorded run: every item of its bodies that `stored` keeps, each under its key. */
export function expectedRecords(row: RecordedRun, query: ResolvedQuery, stored: (item: unknown) => boolean = () => true): [key: string, item: unknown][] {
  const items = row.files.flatMap((file) => {
    const found = at(recordedJson(file), row.items);
    return Array.isArray(found) ? (found as unknown[]) : [found];
  });
  const keyOf = (item: unknown) => joinKeyParts(row.key.map((part) => (part === '$query' ? query.subject! : (at(item, part) as string))));
  return items.filter(stored).map((item) => [keyOf(item), item]);
}

/**
 * The two tests of each recorded run: that it stores each item the user expects once, under its
 * key, as the body has it (`stored`: which items the query keeps), and how it ends.
 */
export function recordedRunTests(rows: readonly RecordedRun[], context: () => { database: TestDatabase; config: Config }, stored?: (item: unknown) => boolean): void {
  const named = rows.map((row) => [row.files.join(', '), row.ends.join(', '), row] as const);
  it.each(named)('%s: stores each item once, under its key, as the body has it', async (_files, _ends, row) => {
    const { database, config } = context();
    const query = row.query(config);
    const { records } = await replayRun(database, pageRoutes(row.files), query);
    const expected = expectedRecords(row, query, stored);
    expect(new Set(expected.map(([key]) => key)).size).toBe(expected.length);
    expect(records).toHaveLength(expected.length);
    expect(new Map(records.map(({ key, payload }) => [key, payload]))).toEqual(new Map(expected));
  });

  it.each(named)('%s: ends %s', async (_files, _ends, row) => {
    const { database, config } = context();
    const { summary } = await replayRun(database, pageRoutes(row.files), row.query(config));
    expect([summary.status, summary.stopReason]).toEqual(row.ends);
  });
}
