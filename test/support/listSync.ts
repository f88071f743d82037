import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import type { ResolvedQuery } from '../../src/config/jobs/resolveQuery.js';
import type { Config, ConfigInput } from '../../src/config/schema.js';
import { OPEN_GATE } from '../../src/http/RequestGate.js';
import { SourceClient } from '../../src/http/SourceClient.js';
import { openRunStore } from '../../src/storage/runStore.js';
import { runIdentityOf } from '../../src/sync/runIdentity.js';
import { syncQuery, type RunSummary, type SyncQueryOptions } from '../../src/sync/syncQuery.js';
import { startListApi } from './listApi.js';
import type { LocalApi } from './localApi.js';
import { capturingLogger, queryOf } from './syncFixture.js';
import { createTestDatabase, type TestDatabase } from './testDatabase.js';

/** A list sync test file's API and database of its own, both set once its beforeAll has run. */
export interface GivenListApi<T> {
  /** What the upstream returns now, per path: each test serves its own lists under its own paths. */
  lists: Map<string, T[]>;
  api: LocalApi;
  database: TestDatabase;
}

/** The list sync tests' one set-up: a list API and a database of the calling file's own, started before its tests and closed after them. */
export function givenListApi<T>(): GivenListApi<T> {
  const given = { lists: new Map<string, T[]>() } as GivenListApi<T>;
  beforeAll(async () => {
    given.api = await startListApi(given.lists);
    given.database = await createTestDatabase();
  });
  afterAll(async () => {
    // Both, whichever fails (a beforeAll that failed may have left either unset), then the first failure.
    const failed = (await Promise.allSettled([given.api?.close(), given.database?.drop()])).find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  });
  return given;
}

/** The one query of job `name`, reading the list at `path` two items a page into `kind`: a test names only what its job has besides. */
export function listQuery(api: LocalApi, path: string, name: string, kind: string, more: { job?: Partial<ConfigInput['jobs'][number]>; paging?: Record<string, unknown> } = {}): { config: Config; query: ResolvedQuery } {
  const config = parseConfig(
    {
      sources: { api: { baseUrl: api.baseUrl, path, auth: { type: 'none' }, response: { preset: 'plain' }, retry: { attempts: 1 }, paging: { limit: 2, ...more.paging } } },
      jobs: [{ name, source: 'api', records: { path: 'items', kind }, queries: [{}], ...more.job }],
    },
    'test config',
    {},
  );
  return { config, query: queryOf(config, name) };
}

/** One sync run of `query` with `items` served at `path`, through a client of its own; `options` add to the defaults or replace them. */
export async function syncList<T>(given: GivenListApi<T>, query: ResolvedQuery, path: string, items: T[], options: Partial<SyncQueryOptions> = {}): Promise<RunSummary> {
  given.lists.set(path, items);
  const client = new SourceClient('api', query.source);
  try {
    const identity = runIdentityOf(query, `test/${randomUUID()}`);
    return await syncQuery(query, identity, { client, gate: OPEN_GATE, logger: capturingLogger().logger, ...options, store: options.store ?? openRunStore(given.database.db) });
  } finally {
    await client.close();
  }
}
