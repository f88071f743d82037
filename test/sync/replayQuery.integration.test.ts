import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import type { Config } from '../../src/config/schema.js';
import { openRunStore, type RunStore } from '../../src/storage/runStore.js';
import { ReplayReader } from '../../src/storage/pages/ReplayReader.js';
import { replayJob } from '../../src/sync/replayJob.js';
import { runJobNow } from '../../src/sync/runJobNow.js';
import { SourceRegistry } from '../../src/sync/SourceRegistry.js';
import { startLocalApi, type LocalApi } from '../support/localApi.js';
import { capturingLogger } from '../support/syncFixture.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';

/** What the API answers now: a list a test changes between syncs. */
let items: { id: string; v: number }[] = [];
let api: LocalApi;
let database: TestDatabase;
let store: RunStore;

beforeAll(async () => {
  api = await startLocalApi((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ items })));
  database = await createTestDatabase();
  store = openRunStore(database.db);
});
afterAll(async () => {
  await api.close();
  await database.drop();
});

/** A job of its own, one page of `items`, keeping every version (append). */
function appendJob(): Config {
  const name = `prices-${randomUUID().slice(0, 8)}`;
  return parseConfig(
    {
      sources: { api: { baseUrl: api.baseUrl, path: '/', auth: { type: 'none' }, response: { preset: 'plain' }, retry: { attempts: 1 } } },
      jobs: [{ name, source: 'api', mode: 'append', records: { path: 'items', kind: name.replace('-', '_'), key: 'id' }, queries: [{ q: 'x' }] }],
    },
    'test',
    {},
  );
}

async function syncNow(config: Config): Promise<void> {
  const sources = new SourceRegistry(config);
  try {
    const { summaries } = await runJobNow(config, config.jobs[0]!.name, {}, { store, sources, logger: capturingLogger().logger, resumable: false });
    expect(summaries.map((summary) => summary.status)).toEqual(['succeeded']);
  } finally {
    await sources.close();
  }
}

const replay = (config: Config) => replayJob(config, { job: config.jobs[0]!.name }, { store, replayReader: new ReplayReader(database.pool), logger: capturingLogger().logger, onError: 'stop' });

/** The records of the job's kind with their change_seq, and how many versions each has. */
async function stateOf(config: Config) {
  const kind = config.jobs[0]!.records!.kind!;
  const { rows } = await database.pool.query<{ key: string; v: number; change_seq: string; versions: number }>(
    `select r.key, (r.payload->>'v')::int as v, r.change_seq::text, (select count(*)::int from record_versions h where h.kind = r.kind and h.key = r.key) as versions
      from records r where r.kind = $1 order by r.key`,
    [kind],
  );
  return rows;
}

describe('replayQuery', () => {
  it('leaves a record received in several versions as the newest stored it: no new change_seq, no version again, each time', async () => {
    const config = appendJob();
    items = [{ id: 'x', v: 1 }, { id: 'y', v: 1 }];
    await syncNow(config);
    items = [{ id: 'x', v: 2 }, { id: 'y', v: 1 }];
    await syncNow(config);
    const synced = await stateOf(config);
    expect(synced.map(({ key, v, versions }) => ({ key, v, versions }))).toEqual([
      { key: 'x', v: 2, versions: 2 },
      { key: 'y', v: 1, versions: 1 },
    ]);
    for (let time = 0; time < 2; time++) {
      const replayed = await replay(config);
      expect(replayed?.summaries[0]!.counts).toEqual({ new: 0, updated: 0, unchanged: 4 });
      expect(await stateOf(config)).toEqual(synced);
    }
  });

  it('rebuilds the newest version of each record once records were emptied, written as the run that received it', async () => {
    const config = appendJob();
    items = [{ id: 'x', v: 1 }];
    await syncNow(config);
    items = [{ id: 'x', v: 2 }];
    await syncNow(config);
    const kind = config.jobs[0]!.records!.kind!;
    await database.pool.query('delete from records where kind = $1', [kind]);
    await replay(config);
    expect((await stateOf(config)).map(({ key, v }) => ({ key, v }))).toEqual([{ key: 'x', v: 2 }]);
    const { rows } = await database.pool.query<{ runs: number }>(
      `select count(distinct r.last_changed_run_id)::int as runs from records r join sync_runs s on s.id = r.last_changed_run_id where r.kind = $1 and s.run_key not like 'replay/%'`,
      [kind],
    );
    expect(rows[0]!.runs).toBe(1);
  });
});
