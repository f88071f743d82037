import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/loading/loadConfig.js';
import type { Config } from '../../src/config/schema.js';
import { findJob, resolveQuery, type ResolvedQuery } from '../../src/config/jobs/resolveQuery.js';
import { OPEN_GATE } from '../../src/http/RequestGate.js';
import { SourceClient } from '../../src/http/SourceClient.js';
import { Chain, DEFAULT_CHAIN_SHAPE } from '../../src/simulator/explorer/Chain.js';
import { etherscanEnv, lastfmEnv } from '../../src/simulator/readyMessage.js';
import { startSimulator, type Simulator } from '../../src/simulator/startSimulator.js';
import { openRunStore } from '../../src/storage/runStore.js';
import { syncQuery, type SyncProgress, type SyncQueryOptions } from '../../src/sync/syncQuery.js';
import { completionNotice } from '../../src/notices/completionNotice.js';
import { capturingLogger, queryOf } from '../support/syncFixture.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';
import { runIdentityOf } from '../../src/sync/runIdentity.js';

/** A key long enough to be scrubbed, and unlike anything else in a page. */
const KEY = 'dialect-key-4be1c9d07a';
let lastfm: Simulator;
let etherscan: Simulator;
let database: TestDatabase;

beforeAll(async () => {
  const options = { apiKeys: [KEY], chain: { blockIntervalMs: 0 } };
  [lastfm, etherscan] = await Promise.all([startSimulator({ ...options, dialect: 'lastfm' }), startSimulator({ ...options, dialect: 'etherscan' })]);
  database = await createTestDatabase();
});
afterAll(async () => {
  await Promise.all([lastfm.close(), etherscan.close(), database.drop()]);
});

/** An example config as shipped, on the simulator speaking its dialect, with quick retries. */
async function exampleConfig(name: 'lastfm' | 'etherscan', simulator: Simulator): Promise<Config> {
  const env = { ...(name === 'lastfm' ? lastfmEnv(simulator) : etherscanEnv(simulator)), WEBHOOK_BASE_URL: simulator.webhookBaseUrl, WEBHOOK_UUID: simulator.webhookUuid, EXPLORER_HOT_ADDRESS: simulator.hotAddress };
  const config = await loadConfig(`examples/${name}.yaml`, env);
  for (const source of Object.values(config.sources)) Object.assign(source, { rateLimit: undefined, retry: { attempts: 4, baseDelayMs: 10, maxDelayMs: 50, maxRetryAfterMs: 1000 } });
  return config;
}

/** One run of `query` to the end, with everything it logged and stored that could hold the key. */
async function syncOnce(query: ResolvedQuery, onPage?: (progress: SyncProgress) => void, noticeFor?: SyncQueryOptions['noticeFor']) {
  const client = new SourceClient(query.sourceName, query.source);
  const { logger, lines } = capturingLogger();
  try {
    const identity = runIdentityOf(query, `test/${randomUUID()}`);
    const summary = await syncQuery(query, identity, { store: openRunStore(database.db), client, gate: OPEN_GATE, logger, onPage, noticeFor });
    const stored = await database.pool.query<{ text: string }>(
      `select concat_ws(' ', r.query::text, r.error, r.checkpoint::text, string_agg(e.request_url || b.body::text, ' ')) as text
       from sync_runs r left join envelopes e on e.run_id = r.id left join page_bodies b using (content_hash) where r.id = $1 group by r.id`,
      [summary.runId],
    );
    const filtered = await database.pool.query<{ n: number }>('select records_filtered as n from sync_runs where id = $1', [summary.runId]);
    return { summary, logged: lines.join(''), stored: stored.rows[0]?.text ?? '', filtered: filtered.rows[0]?.n };
  } finally {
    await client.close();
  }
}

describe('examples/lastfm.yaml against the simulator speaking Last.fm', () => {
  it('stores a user\'s scrobbles keyed by date.uts, leaving out the track playing now, with the key in the query string and nowhere else', async () => {
    const query = queryOf(await exampleConfig('lastfm', lastfm), 'listening-history');
    const { summary, logged, stored, filtered } = await syncOnce(query);
    const first = (await (await fetch(`${lastfm.musicBaseUrl}/2.0/?method=user.getRecentTracks&user=${query.q}&limit=1&format=json&api_key=${KEY}`)).json()) as { recenttracks: { '@attr': { total: string } } };
    expect(summary).toMatchObject({ status: 'succeeded', counts: { new: Number(first.recenttracks['@attr'].total) } });
    expect(filtered).toBe(1);
    expect(stored).toContain('api_key=***');
    for (const text of [logged, stored]) expect(text).not.toContain(KEY);
  });

  it('ends after the page count @attr gives', async () => {
    const { summary } = await syncOnce(queryOf(await exampleConfig('lastfm', lastfm), 'tag-charts'));
    expect(summary).toMatchObject({ status: 'succeeded', stopReason: 'last_page' });
  });

  it("reads a search's total from its OpenSearch fields, and stops after the pages it fills", async () => {
    const config = await exampleConfig('lastfm', lastfm);
    const query = { ...queryOf(config, 'artists'), paging: { ...queryOf(config, 'artists').paging, limit: 5, maxPages: 1000 } };
    const totals = new Set<number | undefined>();
    const { summary } = await syncOnce(query, (progress) => void totals.add(progress.expectedTotal));
    const stated = (await (await fetch(`${lastfm.musicBaseUrl}/2.0/?method=artist.search&artist=${query.q}&limit=5&format=json&api_key=${KEY}`)).json()) as { results: Record<string, unknown> };
    const total = Number(stated.results['opensearch:totalResults']);
    expect(total).toBeGreaterThan(5);
    expect([...totals]).toEqual([total]);
    expect(summary).toMatchObject({ status: 'succeeded', pages: Math.ceil(total / 5), counts: { new: total } });
    expect(summary.stopReason).toBe(total % 5 === 0 ? 'last_page' : 'short_page');
  });

  it('fails at once, without retrying, on error 10 (invalid key)', async () => {
    const config = await exampleConfig('lastfm', lastfm);
    config.sources.lastfm!.auth = { type: 'query', name: 'api_key', value: 'not-the-key-12345' };
    const { summary } = await syncOnce(queryOf(config, 'artists'));
    expect(summary).toMatchObject({ status: 'failed' });
    expect(summary.error).toMatchObject({ kind: 'auth', status: 403 });
  });

  it('retries error 29 (rate limit exceeded) and error 16 (temporary) in an HTTP 200, then succeeds', async () => {
    lastfm.setFaults('music', { sequence: ['errorEnvelope', 'errorEnvelope', 'tooManyRequests'] });
    try {
      const { summary } = await syncOnce(queryOf(await exampleConfig('lastfm', lastfm), 'similar-artists'));
      expect(summary).toMatchObject({ status: 'succeeded' });
    } finally {
      lastfm.reset();
    }
  });
});

/** The example's transactions query, as the run for one chain id of its fan-out performs it. */
const transactionsOn = (config: Config, chainId: string): ResolvedQuery => resolveQuery(config, findJob(config, 'transactions'), 0, chainId);
/** The example's eth_blockNumber query, as the run for one chain id performs it. */
const headBlockOn = (config: Config, chainId: string): ResolvedQuery => resolveQuery(config, findJob(config, 'head-block'), 0, chainId);

/** The contracts query asking the proxy module for the transaction `hash`, keyed by its hash. */
function transactionByHash(config: Config, hash: string): ResolvedQuery {
  const query = queryOf(config, 'contracts');
  return { ...query, q: hash, subject: hash, qParam: 'txhash', params: { ...query.params, module: 'proxy', action: 'eth_getTransactionByHash' }, records: { ...query.records, key: 'hash', kind: 'proxy_transaction' } };
}

describe('examples/etherscan.yaml against the simulator speaking Etherscan API V2', () => {
  it('slides startblock across the 10,000-result window and stores every transaction of a chain once, keyed by chain and hash', async () => {
    const config = await exampleConfig('etherscan', etherscan);
    const query = transactionsOn(config, '8453');
    const { summary, logged, stored } = await syncOnce(query);
    // The simulator's own chain, for how many transactions the address has from block 118,000 on.
    const chain = new Chain(etherscan.seed, DEFAULT_CHAIN_SHAPE);
    const expected = chain.addressTxCount(chain.addressIndex(query.q!)!, 118_000, etherscan.head());
    expect(expected).toBeGreaterThan(10_000);
    const { rows } = await database.pool.query<{ n: string; distinct: string }>(
      `select count(*) n, count(distinct payload->>'hash') as distinct from records where source = 'etherscan' and kind = 'transaction' and key like '8453|%'`,
    );
    expect(summary.status).toBe('succeeded');
    expect(summary.pages).toBeGreaterThan(10);
    expect(summary.counts.new).toBe(expected);
    expect(Number(rows[0]!.n)).toBe(expected);
    expect(rows[0]!.distinct).toBe(rows[0]!.n);
    expect(stored).toContain('apikey=***');
    expect(stored).toContain('chainid=8453');
    for (const text of [logged, stored]) expect(text).not.toContain(KEY);
  });

  it('reads "No transactions found" as an empty result', async () => {
    const config = await exampleConfig('etherscan', etherscan);
    const query = { ...transactionsOn(config, '1'), q: '0x000000000000000000000000000000000000dead', incremental: undefined };
    const { summary } = await syncOnce(query);
    expect(summary).toMatchObject({ status: 'succeeded', stopReason: 'empty_page', pages: 1, counts: { new: 0 } });
  });

  it('retries "Max rate limit reached", then succeeds', async () => {
    etherscan.setFaults('explorer', { sequence: ['tooManyRequests', 'errorEnvelope'] });
    try {
      const { summary } = await syncOnce(queryOf(await exampleConfig('etherscan', etherscan), 'contracts'));
      expect(summary).toMatchObject({ status: 'succeeded', counts: { new: 1 } });
    } finally {
      etherscan.reset();
    }
  });

  it("stores a chain's head as eth_blockNumber sends it, a hex quantity keyed by the chain id", async () => {
    const { summary } = await syncOnce(headBlockOn(await exampleConfig('etherscan', etherscan), '42161'));
    const { rows } = await database.pool.query<{ payload: string }>(`select payload::text as payload from records where source = 'etherscan' and kind = 'head_block' and key = '42161'`);
    expect(summary).toMatchObject({ status: 'succeeded', counts: { new: 1 } });
    expect(rows).toEqual([{ payload: `"0x${etherscan.head().toString(16)}"` }]);
  });

  it('retries an eth_blockNumber call refused with "Max rate limit reached", then stores the head', async () => {
    const config = await exampleConfig('etherscan', etherscan);
    etherscan.setFaults('explorer', { sequence: ['tooManyRequests'] });
    const before = etherscan.stats().explorer.count;
    try {
      const { summary } = await syncOnce(headBlockOn(config, '10'));
      expect(summary).toMatchObject({ status: 'succeeded', counts: { new: 1 } });
      expect(etherscan.stats().explorer.count - before).toBe(2);
    } finally {
      etherscan.reset();
    }
  });

  it('stores the transaction eth_getTransactionByHash answers, keyed by its hash', async () => {
    const config = await exampleConfig('etherscan', etherscan);
    const listed = (await (await fetch(`${etherscan.explorerBaseUrl}/v2/api?chainid=1&module=account&action=txlist&address=${etherscan.hotAddress}&offset=1&apikey=${KEY}`)).json()) as { result: [{ hash: string }] };
    const { hash } = listed.result[0];
    const { summary } = await syncOnce(transactionByHash(config, hash));
    const { rows } = await database.pool.query<{ hash: string }>(`select payload->>'hash' as hash from records where source = 'etherscan' and kind = 'proxy_transaction' and key = $1`, [hash]);
    expect(summary).toMatchObject({ status: 'succeeded', counts: { new: 1 } });
    expect(rows).toEqual([{ hash }]);
  });

  it('reads the null result for a hash no transaction has as an empty page', async () => {
    const { summary } = await syncOnce(transactionByHash(await exampleConfig('etherscan', etherscan), `0x${'1'.repeat(64)}`));
    expect(summary).toMatchObject({ status: 'succeeded', stopReason: 'empty_page', counts: { new: 0 } });
  });

  it('fails at once on "Invalid API Key"', async () => {
    const config = await exampleConfig('etherscan', etherscan);
    config.sources.etherscan!.auth = { type: 'query', name: 'apikey', value: 'not-the-key-12345' };
    const { summary } = await syncOnce(queryOf(config, 'contracts'));
    expect(summary).toMatchObject({ status: 'failed' });
    expect(summary.error).toMatchObject({ kind: 'auth' });
  });

  it.each([
    ['a V1 path', { path: '/api' }, /deprecated V1 endpoint.*set the source's path to \/v2\/api/],
    ['no chainid', { chainid: undefined }, /Missing chainid parameter.*add chainid to the query's params/],
  ])('fails at once, with the fix in its error, when asked the way Etherscan no longer answers: %s', async (_case, change, error) => {
    const config = await exampleConfig('etherscan', etherscan);
    if ('path' in change) config.sources.etherscan!.path = change.path;
    const query = queryOf(config, 'contracts');
    const before = etherscan.stats().explorer.count;
    const { summary } = await syncOnce('chainid' in change ? { ...query, params: Object.fromEntries(Object.entries(query.params).filter(([name]) => name !== 'chainid')) } : query);
    expect(summary).toMatchObject({ status: 'failed', final: true, error: { kind: 'rejected' } });
    expect(summary.error!.message).toMatch(error);
    // Asked once: the same request would get the same answer.
    expect(etherscan.stats().explorer.count - before).toBe(1);
  });

  it('stores what a key-less request gets, throttled, and says so once: in the log, on the run and in its notice', async () => {
    const config = await exampleConfig('etherscan', etherscan);
    config.sources.etherscan!.auth = { type: 'none' };
    const { summary, logged } = await syncOnce(transactionsOn(config, '10'), undefined, completionNotice);
    const throttled = 'OK-Missing/Invalid API Key, rate limit of 1/5sec applied';
    expect(summary).toMatchObject({ status: 'succeeded' });
    expect(summary.pages).toBeGreaterThan(2);
    expect(logged.split('\n').filter((line) => line.includes('sent the data with a warning'))).toHaveLength(1);
    const run = await database.pool.query<{ warnings: string[]; body: string }>(`select r.warnings, n.body::text as body from sync_runs r join notices n on n.run_id = r.id where r.id = $1`, [summary.runId]);
    expect(run.rows[0]!.warnings).toEqual([throttled]);
    expect((JSON.parse(run.rows[0]!.body) as { data: { warnings: string[] } }).data.warnings).toEqual([throttled]);
  });

  it('stores every token transfer of a chain once, keyed so that the two transfers of one tx stay two', async () => {
    const config = await exampleConfig('etherscan', etherscan);
    const query = resolveQuery(config, findJob(config, 'token-transfers'), 0, '42161');
    const { summary } = await syncOnce(query);
    const listed = (await (
      await fetch(`${etherscan.explorerBaseUrl}/v2/api?chainid=42161&module=account&action=tokentx&address=${query.q}&startblock=118000&offset=10000&sort=asc&apikey=${KEY}`)
    ).json()) as { result: { hash: string }[] };
    expect(new Set(listed.result.map((transfer) => transfer.hash)).size).toBeLessThan(listed.result.length);
    expect(summary).toMatchObject({ status: 'succeeded', counts: { new: listed.result.length } });
    const { rows } = await database.pool.query<{ n: string }>(`select count(*) as n from records where kind = 'token_transfer' and key like '42161|%'`);
    expect(Number(rows[0]!.n)).toBe(listed.result.length);
  });
});

