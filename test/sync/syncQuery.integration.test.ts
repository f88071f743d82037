import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ResolvedQuery } from '../../src/config/jobs/resolveQuery.js';
import type { Config } from '../../src/config/schema.js';
import { OPEN_GATE } from '../../src/http/RequestGate.js';
import { SourceClient } from '../../src/http/SourceClient.js';
import { startSimulator, type Simulator } from '../../src/simulator/startSimulator.js';
import { openRunStore } from '../../src/storage/runStore.js';
import { syncQuery, type SyncQueryOptions } from '../../src/sync/syncQuery.js';
import { capturingLogger, configFor, queryOf } from '../support/syncFixture.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';
import { runIdentityOf } from '../../src/sync/runIdentity.js';

let simulator: Simulator;
let database: TestDatabase;
let clock = Date.now();
const clients: SourceClient[] = [];

beforeAll(async () => {
  simulator = await startSimulator({
    seed: 7,
    music: { artists: 1200, users: 20, playsPerUser: 300 },
    chain: { initialHead: 4000, txsPerBlock: 100, activeAddresses: 20, blockIntervalMs: 1000 },
    now: () => clock,
  });
  database = await createTestDatabase();
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await simulator.close();
  await database.drop();
});
beforeEach(() => simulator.reset());

function sync(query: ResolvedQuery, options: Partial<SyncQueryOptions> & { runKey?: string; onRequestEnded?: (status: string, latencyMs: number) => void } = {}) {
  const client = new SourceClient(query.sourceName, query.source, { onRequestEnded: options.onRequestEnded });
  clients.push(client);
  const { logger } = capturingLogger();
  return syncQuery(query, runIdentityOf(query, options.runKey ?? `test/${randomUUID()}`), { store: openRunStore(database.db), client, gate: OPEN_GATE, logger, ...options });
}

async function upstreamTotal(config: Config, job: string): Promise<number> {
  const query = queryOf(config, job);
  const client = new SourceClient(query.sourceName, query.source);
  clients.push(client);
  const page = await client.fetchPage({ ...query.params, ...(query.q === undefined ? {} : { q: query.q }), limit: '1' });
  return Number((page.envelope.data as { total: unknown }).total);
}

const count = async (sql: string, params: unknown[] = []) => Number((await database.pool.query<{ n: string }>(sql, params)).rows[0]?.n);

const artistSearch = (q: string, paging: Record<string, unknown> = {}) =>
  configFor(simulator, [{ name: 'artists', source: 'music', records: { path: 'results.artistmatches.artist', kind: 'artist' }, paging: { limit: 50, ...paging }, queries: [{ q, params: { method: 'artist.search' } }] }]);

describe('syncQuery', () => {
  it('pages to the last partial page and stores every record once', async () => {
    const config = artistSearch('a');
    const total = await upstreamTotal(config, 'artists');
    expect(total % 50).not.toBe(0);
    const summary = await sync(queryOf(config, 'artists'));
    expect(summary).toMatchObject({ status: 'succeeded', stopReason: 'short_page', pages: Math.ceil(total / 50) });
    expect(summary.counts.new + summary.counts.updated + summary.counts.unchanged).toBe(total);
    expect(await count(`select count(*) n from envelopes where run_id = $1`, [summary.runId])).toBe(summary.pages);
  });

  it('stores each page’s envelope byte for byte as the upstream sent it', async () => {
    const config = artistSearch('b');
    const summary = await sync(queryOf(config, 'artists'));
    const { rows } = await database.pool.query<{ url: string; body: string; bytes: number }>(
      `select e.request_url as url, b.body::text as body, e.bytes from envelopes e join page_bodies b using (content_hash) where e.run_id = $1 order by e.page_seq`,
      [summary.runId],
    );
    expect(rows).toHaveLength(summary.pages);
    for (const row of rows) {
      const again = await fetch(row.url, { headers: { authorization: `Bearer ${simulator.apiKey}` } });
      expect(row.body).toBe(await again.text());
      expect(Buffer.byteLength(row.body)).toBe(row.bytes);
    }
  });

  it('asks for the next page of page paging on a guess while it waits on the upstream: requests overlap, the same pages are stored', async () => {
    // Each answer slower than a page's store: the run waits on the upstream, where guesses are made.
    simulator.setFaults('music', { latencyMs: 100 });
    const stored = async (guessNextPage: boolean) => {
      const requests: { start: number; end: number }[] = [];
      const onRequestEnded = (_status: string, latencyMs: number) => {
        const end = performance.now();
        requests.push({ start: end - latencyMs, end });
      };
      const summary = await sync(queryOf(artistSearch('a', { guessNextPage }), 'artists'), { onRequestEnded });
      const { rows } = await database.pool.query<{ url: string; hash: string }>(`select request_url as url, content_hash as hash from envelopes where run_id = $1 order by page_seq`, [summary.runId]);
      const overlapping = requests.some((a, i) => requests.slice(i + 1).some((b) => a.start < b.end && b.start < a.end));
      return { summary, requests: requests.length, overlapping, pages: rows };
    };
    const waiting = await stored(false);
    const guessing = await stored(true);

    expect(waiting.summary.pages).toBeGreaterThanOrEqual(3);
    expect(waiting).toMatchObject({ requests: waiting.summary.pages, overlapping: false });
    const read = ({ counts }: typeof waiting.summary) => counts.new + counts.updated + counts.unchanged;
    expect(guessing.summary).toMatchObject({ status: 'succeeded', stopReason: 'short_page', pages: waiting.summary.pages });
    expect(read(guessing.summary)).toBe(read(waiting.summary));
    expect(guessing.pages).toEqual(waiting.pages);
    // A guess leaves with (or soon after) the request before it. How many go past the last page is
    // PagesAhead's to test: a request is counted here only once answered, often after the run.
    expect(guessing.overlapping).toBe(true);
  });

  it('stops at an empty result after one page', async () => {
    const summary = await sync(queryOf(artistSearch('zzzz-no-such-artist'), 'artists'));
    expect(summary).toMatchObject({ status: 'succeeded', stopReason: 'empty_page', pages: 1, counts: { new: 0, updated: 0, unchanged: 0 } });
  });

  it('stops when the upstream ignores the page parameter and repeats a page, ending partial short of the stated total', async () => {
    const summary = await sync(queryOf(artistSearch('a', { pageParam: 'pg' }), 'artists'));
    expect(summary).toMatchObject({ status: 'partial', stopReason: 'repeated_page', pages: 1, shortfall: { kind: 'short_of_total' } });
  });

  it('reports every record unchanged on a re-run and rewrites none', async () => {
    const config = artistSearch('e');
    const first = await sync(queryOf(config, 'artists'));
    const versions = await database.pool.query(`select key, xmin::text from records where kind = 'artist' order by key`);
    const second = await sync(queryOf(config, 'artists'));
    const records = first.counts.new + first.counts.updated + first.counts.unchanged;
    expect(second.counts).toEqual({ new: 0, updated: 0, unchanged: records });
    expect((await database.pool.query(`select key, xmin::text from records where kind = 'artist' order by key`)).rows).toEqual(versions.rows);
  });

  it('crosses the 10,000-result window by sliding startblock, without duplicates or gaps', async () => {
    const config = configFor(simulator, [
      { name: 'txs', source: 'explorer', records: { path: 'result', key: 'hash', kind: 'transaction' }, queries: [{ q: simulator.hotAddress, params: { module: 'account', action: 'txlist', sort: 'asc', endblock: 3000 } }] },
    ]);
    const total = await upstreamTotal(config, 'txs');
    expect(total).toBeGreaterThan(20_000);
    const summary = await sync(queryOf(config, 'txs'));
    expect(summary.status).toBe('succeeded');
    expect(summary.counts.new).toBe(total);
    expect(summary.counts.unchanged).toBe(0);
    expect(await count(`select count(*) n from records where first_seen_run_id = $1`, [summary.runId])).toBe(total);
    const windows = await database.pool.query<{ url: string }>(`select request_url as url from envelopes where run_id = $1 order by page_seq`, [summary.runId]);
    expect(windows.rows.filter((row) => new URL(row.url).searchParams.has('startblock')).length).toBeGreaterThan(0);
  });

  it('records a run stopped by shutdown as interrupted, with no finish time, and resumes it after its last stored page', async () => {
    const query = queryOf(artistSearch('a', { limit: 20 }), 'artists');
    const runKey = `test/${randomUUID()}`;
    const stop = new AbortController();
    const first = await sync(query, { runKey, signal: stop.signal, onPage: (progress) => (progress.pages === 3 ? stop.abort() : undefined) });
    expect(first).toMatchObject({ status: 'interrupted', pages: 3 });
    const { rows: interrupted } = await database.pool.query('select status, finished_at, error from sync_runs where id = $1', [first.runId]);
    expect(interrupted).toEqual([{ status: 'interrupted', finished_at: null, error: null }]);
    const resumed = await sync(query, { runKey });
    expect(resumed).toMatchObject({ status: 'succeeded', runId: first.runId, attempt: 2 });
    const pages = await database.pool.query<{ page_seq: number; url: string }>(`select page_seq, request_url as url from envelopes where run_id = $1 order by page_seq`, [first.runId]);
    expect(pages.rows.map((row) => row.page_seq)).toEqual(Array.from({ length: resumed.pages }, (_, i) => i + 1));
    expect(pages.rows.map((row) => new URL(row.url).searchParams.get('page'))).toEqual(Array.from({ length: resumed.pages }, (_, i) => String(i + 1)));
  });

  it('on an incremental query, fetches only blocks after the stored cursor (minus the overlap)', async () => {
    const config = configFor(simulator, [
      {
        name: 'recent-txs',
        source: 'explorer',
        records: { path: 'result', key: 'hash', kind: 'transaction' },
        queries: [{ q: simulator.hotAddress, params: { module: 'account', action: 'txlist', sort: 'asc', startblock: 3990 }, incremental: { param: 'startblock', field: 'blockNumber', overlap: 2 } }],
      },
    ]);
    const query = queryOf(config, 'recent-txs');
    const first = await sync(query);
    expect(first.status).toBe('succeeded');
    const headBefore = simulator.head();
    clock += 5_000;
    expect(simulator.head()).toBe(headBefore + 5);
    const second = await sync(query);
    const perBlock = first.counts.new / (headBefore - 3990 + 1);
    expect(second.counts).toEqual({ new: 5 * perBlock, updated: 0, unchanged: 3 * perBlock });
    const urls = await database.pool.query<{ url: string }>(`select request_url as url from envelopes where run_id = $1`, [second.runId]);
    expect(new URL(urls.rows[0]!.url).searchParams.get('startblock')).toBe(String(headBefore - 2));
  });

  it('fails a resumed run whose query changed in the config, rather than resume from its checkpoint', async () => {
    const first = queryOf(artistSearch('a', { limit: 20 }), 'artists');
    const runKey = `test/${randomUUID()}`;
    const stop = new AbortController();
    await sync(first, { runKey, signal: stop.signal, onPage: (progress) => (progress.pages === 2 ? stop.abort() : undefined) });
    const changed = queryOf(artistSearch('e', { limit: 20 }), 'artists');
    const resumed = await sync(changed, { runKey });
    expect(resumed).toMatchObject({ status: 'failed', pages: 2 });
    expect(resumed.error?.name).toBe('QueryChangedError');
  });
});
