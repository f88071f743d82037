import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type DialectName } from '../../../src/simulator/dialects/names.js';
import { readyExports, readyText } from '../../../src/simulator/readyMessage.js';
import { SimulatorError } from '../../../src/simulator/SimulatorError.js';
import { startSimulator, type Simulator } from '../../../src/simulator/startSimulator.js';
import { explorerUrl, getBody, getJson, musicUrl, type ServedTx as Tx } from '../httpClient.js';

const SEED = 31;
const SIZES = { music: { artists: 1500, users: 40, playsPerUser: 200 }, chain: { blockIntervalMs: 0 } };
let simulators: Record<DialectName, Simulator>;

beforeAll(async () => {
  const started = await Promise.all(DIALECTS.map((dialect) => startSimulator({ seed: SEED, dialect, ...SIZES })));
  simulators = Object.fromEntries(DIALECTS.map((dialect, index) => [dialect, started[index]!])) as Record<DialectName, Simulator>;
});

afterAll(async () => {
  await Promise.all(Object.values(simulators).map((simulator) => simulator.close()));
});

type Records = Record<string, unknown>[];

/** The items of one page of a music method, read the way each dialect's music endpoint writes them. */
async function musicItems(dialect: DialectName, params: Record<string, string | number>, path: readonly string[]): Promise<Records> {
  const simulator = simulators[dialect];
  const dig = (body: unknown): Records => path.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], body) as Records;
  if (simulator.dialect === 'lastfm') {
    const { body } = await getBody(musicUrl(simulator, { ...params, format: 'json', api_key: simulator.apiKey }));
    return dig(body);
  }
  const { body } = await getJson(musicUrl(simulator, params), simulator.apiKey);
  return dig(body.data);
}

/** The txs of one txlist page, read the way each dialect's explorer writes them. */
async function txPage(dialect: DialectName, params: Record<string, string | number>): Promise<Tx[]> {
  const simulator = simulators[dialect];
  const query = { module: 'account', action: 'txlist', q: simulator.hotAddress, ...params };
  if (simulator.dialect === 'etherscan') {
    return (await getBody<{ result: Tx[] }>(explorerUrl(simulator, { ...query, apikey: simulator.apiKey }))).body.result;
  }
  return (await getJson<{ result: Tx[] }>(explorerUrl(simulator, query), simulator.apiKey)).body.data.result;
}

/** What Last.fm's item must hold of the envelope's record: the same play or artist, written as Last.fm writes it (numbers as text, names inside objects). */
const AS_LASTFM: Readonly<Record<string, (record: Record<string, unknown>) => Record<string, unknown>>> = {
  'user.getRecentTracks': ({ name, mbid, artist, album, uts }) => ({ name, mbid, artist: { '#text': artist }, album: { '#text': album }, date: { uts: String(uts) } }),
  'artist.search': ({ name, mbid, url, listeners }) => ({ name, mbid, url, listeners: String(listeners) }),
  'tag.getTopTracks': ({ name, mbid, url, artist, duration }) => ({ name, mbid, url, artist: { name: artist }, duration: String(duration) }),
};

describe('dialects: the same data in every dialect', () => {
  // Page 2 and several items per page: Last.fm's now-playing track and one-item quirk touch neither.
  it.each([
    ['user.getRecentTracks', 'us-0007', ['recenttracks', 'track']],
    ['artist.search', 'the', ['results', 'artistmatches', 'artist']],
    ['tag.getTopTracks', 'rock', ['tracks', 'track']],
  ] as const)('serves the same %s records on the same page', async (method, q, path) => {
    const params = { method, q, limit: 4, page: 2 };
    const [envelope, lastfm, etherscan] = await Promise.all(DIALECTS.map((dialect) => musicItems(dialect, params, path)));
    expect(envelope).toHaveLength(4);
    expect(lastfm).toMatchObject(envelope!.map(AS_LASTFM[method]!));
    expect(etherscan).toEqual(envelope);
  });

  it('serves the same txlist txs on the same page, Etherscan writing every number as text', async () => {
    const params = { startblock: 300, sort: 'desc', limit: 25, page: 3 };
    const [envelope, lastfm, etherscan] = await Promise.all(DIALECTS.map((dialect) => txPage(dialect, params)));
    expect(envelope).toHaveLength(25);
    expect(lastfm).toEqual(envelope);
    const asEtherscan = envelope!.map(({ hash, blockNumber, transactionIndex, from, to, value, gas, gasPrice, input, status, timeStamp }) => ({
      hash, blockNumber: String(blockNumber), transactionIndex: String(transactionIndex), from, to, value, gas: String(gas), gasPrice, input, txreceipt_status: status, timeStamp: String(timeStamp),
    }));
    expect(etherscan).toMatchObject(asEtherscan);
  });
});

describe('dialects: the endpoint a dialect leaves alone keeps the envelope', () => {
  it('in lastfm, the explorer still answers the envelope with a Bearer key', async () => {
    const simulator = simulators.lastfm;
    const { status, body } = await getJson<{ result: number }>(explorerUrl(simulator, { module: 'proxy', action: 'eth_blockNumber' }), simulator.apiKey);
    expect(status).toBe(200);
    expect(body.status).toBe('success');
    expect(body.data.result).toBe(simulator.head());
  });

  it('in etherscan, the music endpoint still answers the envelope with a Bearer key', async () => {
    const simulator = simulators.etherscan;
    const { status, body } = await getJson(musicUrl(simulator, { method: 'artist.getInfo', q: 'ar-000001' }), simulator.apiKey);
    expect(status).toBe(200);
    expect(body.status).toBe('success');
  });

  it('in envelope, a key in the query string alone is refused', async () => {
    const simulator = simulators.envelope;
    const { status } = await getBody(musicUrl(simulator, { method: 'artist.getInfo', q: 'ar-000001', api_key: simulator.apiKey, format: 'json' }));
    expect(status).toBe(401);
  });
});

describe('dialects: options', () => {
  it('defaults to envelope', async () => {
    const simulator = await startSimulator({ chain: { blockIntervalMs: 0 } });
    try {
      expect(simulator.dialect).toBe('envelope');
    } finally {
      await simulator.close();
    }
  });

  it('rejects an unknown dialect with invalid_options naming the option', async () => {
    const error = await startSimulator({ dialect: 'soap' as DialectName }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SimulatorError);
    expect(error).toMatchObject({ kind: 'invalid_options', optionPath: 'dialect' });
  });

  it('refuses a suspended key on music with 403, error 26, in the envelope too', async () => {
    const simulator = await startSimulator({ suspendedKeys: ['sim-key-suspended'], chain: { blockIntervalMs: 0 } });
    try {
      const { status, body } = await getJson(musicUrl(simulator, { method: 'artist.getInfo', q: 'ar-000001' }), 'sim-key-suspended');
      expect(status).toBe(403);
      expect(body).toMatchObject({ status: 'error', data: { error: 26 } });
    } finally {
      await simulator.close();
    }
  });
});

describe('dialects: the ready message', () => {
  it('names a dialect other than envelope and keeps every export line', () => {
    const simulator = simulators.lastfm;
    const lines = readyText(simulator).split('\n');
    expect(lines[0]).toContain('dialect lastfm');
    expect(lines[1]).toMatch(/^# lastfm: .*api_key/);
    expect(lines.slice(2).filter((line) => line !== '')).toEqual(readyExports(simulator));
  });

  it('prints the envelope heading and the export lines alone for envelope', () => {
    const simulator = simulators.envelope;
    expect(readyText(simulator)).toBe(
      [`feedsync simulator ready (seed ${SEED}); paste these, Ctrl-C stops it:`, ...readyExports(simulator), ''].join('\n'),
    );
  });
});
