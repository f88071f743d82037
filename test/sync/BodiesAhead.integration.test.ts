import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ResolvedQuery } from '../../src/config/jobs/resolveQuery.js';
import { OPEN_GATE } from '../../src/http/RequestGate.js';
import { SourceClient } from '../../src/http/SourceClient.js';
import { startSimulator, type Simulator } from '../../src/simulator/startSimulator.js';
import type { PageEnvelope } from '../../src/storage/pages/PageWrites.js';
import { openRunStore, type RunStore } from '../../src/storage/runStore.js';
import { CHANGE_SEQ_LOCK } from '../../src/storage/pages/statements/pageWriteParts.js';
import { BodiesAhead } from '../../src/sync/BodiesAhead.js';
import { syncQuery, type RunSummary } from '../../src/sync/syncQuery.js';
import { capturingLogger, configFor, queryOf } from '../support/syncFixture.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';
import { waitFor } from '../support/waitFor.js';
import { runIdentityOf } from '../../src/sync/runIdentity.js';

let simulator: Simulator;
let database: TestDatabase;
let store: RunStore;
const clients: SourceClient[] = [];

beforeAll(async () => {
  simulator = await startSimulator({ seed: 11, music: { artists: 400, users: 2, playsPerUser: 10 } });
  database = await createTestDatabase();
  store = openRunStore(database.db);
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await simulator.close();
  await database.drop();
});

/** Artists matching `q`, 20 a page: several pages. */
const artistSearch = (q: string, limit = 20) =>
  queryOf(configFor(simulator, [{ name: 'artists', source: 'music', records: { path: 'results.artistmatches.artist', kind: `artist_${randomUUID().replaceAll("-", "_")}` }, paging: { limit }, queries: [{ q, params: { method: 'artist.search' } }] }]), 'artists');

function sync(query: ResolvedQuery, runKey = `bodies-ahead/${randomUUID()}`): Promise<RunSummary> {
  const client = new SourceClient(query.sourceName, query.source);
  clients.push(client);
  const identity = runIdentityOf(query, runKey);
  return syncQuery(query, identity, { store, client, gate: OPEN_GATE, logger: capturingLogger().logger });
}

const storedHashes = async () => new Set((await database.pool.query<{ content_hash: string }>('select content_hash from page_bodies')).rows.map((row) => row.content_hash));
const envelopeHashes = async (runId: string) =>
  (await database.pool.query<{ page_seq: number; content_hash: string }>('select page_seq, content_hash from envelopes where run_id = $1 order by page_seq', [runId])).rows;

const envelope = (contentHash: string): PageEnvelope => ({ requestUrl: 'http://upstream.test/', raw: '{}', status: 'success', message: '', bytes: 2, contentHash, latencyMs: 1 });

describe('BodiesAhead, in a run', () => {
  it('stores the bodies of the pages after the first while the first is still being stored', async () => {
    const before = await storedHashes();
    // Page 1's statement waits for the change-feed lock, held here; pages 2 and 3 are prepared meanwhile.
    const locker = await database.pool.connect();
    let summary: RunSummary;
    try {
      await locker.query('select pg_advisory_lock($1::bigint)', [CHANGE_SEQ_LOCK]);
      const runKey = `bodies-ahead/${randomUUID()}`;
      const running = sync(artistSearch('a'), runKey);
      const ahead = await waitFor('two bodies stored while page 1 waits', async () => {
        const added = [...(await storedHashes())].filter((hash) => !before.has(hash));
        return added.length >= 2 && added;
      });
      expect(ahead).toHaveLength(2);
      expect((await database.pool.query('select 1 from envelopes e join sync_runs r on r.id = e.run_id where r.run_key = $1', [runKey])).rowCount).toBe(0);
      await locker.query('select pg_advisory_unlock($1::bigint)', [CHANGE_SEQ_LOCK]);
      summary = await running;
      const pages = await envelopeHashes(summary.runId);
      expect(new Set(ahead)).toEqual(new Set(pages.filter((page) => page.page_seq === 2 || page.page_seq === 3).map((page) => page.content_hash)));
    } finally {
      locker.release(true);
    }
    expect(summary.status).toBe('succeeded');
    expect(summary.pages).toBeGreaterThan(3);
  });

  it('stores no body ahead for a run of one page: nothing is stored before it', async () => {
    const storeBodyAhead = vi.spyOn(store.pages, 'storeBodyAhead');
    try {
      const summary = await sync(artistSearch('zz', 1000));
      expect(summary.pages).toBe(1);
      expect(storeBodyAhead).not.toHaveBeenCalled();
    } finally {
      storeBodyAhead.mockRestore();
    }
  });
});

describe('BodiesAhead', () => {
  const pagesWith = (storeBodyAhead: (body: PageEnvelope) => Promise<void>, expectsProven = false) => ({ storeBodyAhead: vi.fn(storeBodyAhead), expectsProven: () => expectsProven });

  it('stores no body ahead for a page likely proven stored unchanged, which stores none', () => {
    const pages = pagesWith(() => Promise.resolve(), true);
    new BodiesAhead(pages, 'run', 1, capturingLogger().logger).prepared(2, envelope('h2'));
    expect(pages.storeBodyAhead).not.toHaveBeenCalled();
  });

  it('stores no body for a page prepared after it closed: a request on its way as the run ended', async () => {
    const pages = pagesWith(() => Promise.resolve());
    const bodies = new BodiesAhead(pages, 'run', 1, capturingLogger().logger);
    await bodies.close();
    bodies.prepared(2, envelope('h2'));
    expect(pages.storeBodyAhead).not.toHaveBeenCalled();
  });

  it('only logs a body it could not store: its page stores it', async () => {
    const { logger, lines } = capturingLogger();
    const bodies = new BodiesAhead(pagesWith(() => Promise.reject(new Error('connection refused'))), 'run', 1, logger);
    bodies.prepared(2, envelope('h2'));
    await bodies.close();
    expect(lines.join('')).toContain('page body not stored ahead; its page stores it');
    expect(lines.join('')).toContain('connection refused');
  });

  it('closes only once every body on its way is stored', async () => {
    let release!: () => void;
    const bodies = new BodiesAhead(pagesWith(() => new Promise<void>((resolve) => (release = resolve))), 'run', 1, capturingLogger().logger);
    bodies.prepared(2, envelope('h2'));
    const order: string[] = [];
    const closed = bodies.close().then(() => order.push('closed'));
    await new Promise((resolve) => setImmediate(resolve));
    order.push('body stored');
    release();
    await closed;
    expect(order).toEqual(['body stored', 'closed']);
  });
});
