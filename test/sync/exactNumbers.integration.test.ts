import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import type { Config, ConfigInput } from '../../src/config/schema.js';
import { openRunStore, type RunStore } from '../../src/storage/runStore.js';
import { ReplayReader } from '../../src/storage/pages/ReplayReader.js';
import { replayJob } from '../../src/sync/replayJob.js';
import { runJobNow } from '../../src/sync/runJobNow.js';
import { SourceRegistry } from '../../src/sync/SourceRegistry.js';
import { capturingLogger } from '../support/syncFixture.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';

/** A page with numbers JSON.parse would change: past 2^53, a long decimal, a trailing zero. */
const EXACT_PAGE = '{"status":"success","data":[{"id":9007199254740993,"gas":9007199254740993,"price":0.1000000000000000000000001,"fee":1.50}],"message":""}';
/** Blocks past 2^53, whose nearest doubles (…992, …996) differ from them. */
const BLOCKS_PAGE = '{"status":"success","data":[{"hash":"0xa","block":9007199254740993},{"hash":"0xb","block":9007199254740995}],"message":""}';

let server: Server;
/** Every request's path and query, in order. */
const received: string[] = [];
let database: TestDatabase;
let store: RunStore;
let config: Config;
const suffix = randomUUID().slice(0, 8);
const exactJob = `exact-${suffix}`;
const blocksJob = `blocks-${suffix}`;

beforeAll(async () => {
  server = createServer((request, response) => {
    received.push(request.url ?? '');
    const body = new URL(request.url ?? '/', 'http://x').pathname === '/exact' ? EXACT_PAGE : BLOCKS_PAGE;
    response.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const source = (path: string): ConfigInput['sources'][string] => ({ baseUrl, path, auth: { type: 'none' }, retry: { attempts: 1 } });
  config = parseConfig(
    {
      sources: { exact: source('/exact'), blocks: source('/blocks') },
      jobs: [
        { name: exactJob, source: 'exact', records: { path: '.', key: 'id', kind: `exact_${suffix}` }, queries: [{}] },
        { name: blocksJob, source: 'blocks', records: { path: '.', key: 'hash', kind: `block_${suffix}` }, queries: [{ incremental: { param: 'fromBlock', field: 'block' } }] },
      ],
    },
    'test config',
    {},
  );
  database = await createTestDatabase();
  store = openRunStore(database.db);
  await syncNow(exactJob);
  await syncNow(blocksJob);
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await database.drop();
});

async function syncNow(job: string): Promise<void> {
  const sources = new SourceRegistry(config);
  try {
    const { summaries } = await runJobNow(config, job, {}, { store, sources, logger: capturingLogger().logger, resumable: false });
    expect(summaries.map((summary) => summary.status)).toEqual(['succeeded']);
  } finally {
    await sources.close();
  }
}

/** The exact job's records: key, a payload field as text, and content hash. */
async function exactRecords(field = 'gas') {
  const { rows } = await database.pool.query<{ key: string; value: string; content_hash: string }>(
    `select key, payload->>$2 as value, content_hash from records where kind = $1`,
    [`exact_${suffix}`, field],
  );
  return rows;
}

describe('numbers in record payloads', () => {
  it('stores an integer beyond 2^53 exactly', async () => {
    expect((await exactRecords('gas')).map((row) => row.value)).toEqual(['9007199254740993']);
  });

  it('stores a long decimal digit for digit', async () => {
    expect((await exactRecords('price')).map((row) => row.value)).toEqual(['0.1000000000000000000000001']);
  });

  it('stores a decimal with a trailing zero as written', async () => {
    expect((await exactRecords('fee')).map((row) => row.value)).toEqual(['1.50']);
  });

  it('keys a record by an integer beyond 2^53 exactly', async () => {
    expect((await exactRecords()).map((row) => row.key)).toEqual(['9007199254740993']);
  });

  it('are stored exactly again by a replay of the stored page, with the content hash the sync gave', async () => {
    const synced = await exactRecords();
    await database.pool.query('delete from records where kind = $1', [`exact_${suffix}`]);
    const replayed = await replayJob(config, { job: exactJob }, { store, replayReader: new ReplayReader(database.pool), logger: capturingLogger().logger, onError: 'stop' });
    expect(replayed?.tick).toMatchObject({ status: 'succeeded' });
    expect(await exactRecords()).toEqual([{ key: '9007199254740993', value: '9007199254740993', content_hash: synced[0]!.content_hash }]);
  });
});

describe('an incremental cursor on a field beyond 2^53', () => {
  it('is stored as the highest value exactly', async () => {
    const { rows } = await database.pool.query<{ value: string }>('select value from incremental_cursors where job = $1', [blocksJob]);
    expect(rows.map((row) => row.value)).toEqual(['9007199254740995']);
  });

  it('is sent exactly by the next run', async () => {
    await syncNow(blocksJob);
    const last = received.filter((url) => url.startsWith('/blocks')).at(-1)!;
    expect(new URL(last, 'http://x').searchParams.get('fromBlock')).toBe('9007199254740995');
  });
});
