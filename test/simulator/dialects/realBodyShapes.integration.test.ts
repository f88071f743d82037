import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Chain, DEFAULT_CHAIN_SHAPE } from '../../../src/simulator/explorer/Chain.js';
import { startSimulator, type Simulator } from '../../../src/simulator/startSimulator.js';
import { describeDifferences, shapeDifferences, shapeOf } from '../../support/jsonShape.js';
import { realBodies, recordedBytes } from '../../support/realBodies.js';
import { explorerUrl, getBody, musicUrl } from '../httpClient.js';

/*
 * The simulator's Last.fm and Etherscan dialects against bodies the real services sent
 * (test/fixtures/real-bodies): asked what the recording asked (the same method, page size and
 * page, a subject of the simulator's own), the simulator must answer with every field the real
 * body has, at every level of its records and of the containers around them (results, @attr,
 * opensearch:*), each of the same JSON type. Fields only the simulator has are let be.
 */

const SEED = 43;
const MUSIC = { artists: 2000, users: 50, playsPerUser: 300 };
let lastfm: Simulator;
/** A catalogue of one-track albums: Last.fm sends the track of such an album as an object. */
let singles: Simulator;
let etherscan: Simulator;

beforeAll(async () => {
  [lastfm, singles, etherscan] = await Promise.all([
    startSimulator({ seed: SEED, dialect: 'lastfm', music: MUSIC }),
    startSimulator({ seed: SEED, dialect: 'lastfm', music: { ...MUSIC, tracksPerAlbum: 1 } }),
    startSimulator({ seed: SEED, dialect: 'etherscan', chain: { blockIntervalMs: 0 } }),
  ]);
});
afterAll(async () => {
  await Promise.all([lastfm.close(), singles.close(), etherscan.close()]);
});

type Params = Record<string, string | number>;
const music = (params: Params, simulator = lastfm) => getBody(musicUrl(simulator, { format: 'json', api_key: simulator.apiKey, ...params }));
const explorer = (params: Params, key: string | null = etherscan.apiKey) => getBody(explorerUrl(etherscan, key === null ? params : { apikey: key, ...params }));
const contract = () => new Chain(SEED, DEFAULT_CHAIN_SHAPE).address(3);
async function aTxHash(): Promise<string> {
  const { body } = await getBody<{ result: [{ hash: string }] }>(explorerUrl(etherscan, { module: 'account', action: 'txlist', address: etherscan.hotAddress, offset: 1, apikey: etherscan.apiKey }));
  return body.result[0].hash;
}

/** Each recorded success body of a method the simulator serves, and the simulator's answer to the request it answered. */
const ASKED: Record<string, () => Promise<{ body: unknown }>> = {
  'lastfm/artist-search.json': () => music({ method: 'artist.search', artist: 'star', limit: 5 }),
  'lastfm/album-search-page2.json': () => music({ method: 'album.search', album: 'night', limit: 3, page: 2 }),
  'lastfm/album-search-single-object.json': () => music({ method: 'album.search', album: 'night', limit: 1, page: 2 }),
  'lastfm/artist-getinfo.json': () => music({ method: 'artist.getInfo', artist: 'ar-000042' }),
  'lastfm/album-getinfo.json': () => music({ method: 'album.getInfo', album: 'al-0000042' }),
  'lastfm/album-getinfo-single-track-object.json': () => music({ method: 'album.getInfo', album: 'al-0000042', username: 'us-0001' }, singles),
  'lastfm/artist-getsimilar.json': () => music({ method: 'artist.getSimilar', artist: 'ar-000042', limit: 5 }),
  'lastfm/tag-gettopartists.json': () => music({ method: 'tag.getTopArtists', tag: 'rock', limit: 20 }),
  'lastfm/tag-gettoptracks.json': () => music({ method: 'tag.getTopTracks', tag: 'rock', limit: 2 }),
  'lastfm/track-search-page4.json': () => music({ method: 'track.search', track: 'river', limit: 5, page: 4 }),
  // Recorded while nothing played; every simulated user plays something now, which its list has besides.
  'lastfm/user-getrecenttracks-limit1.json': () => music({ method: 'user.getRecentTracks', user: 'us-0042', limit: 1 }),
  'lastfm/user-getrecenttracks-nowplaying-limit1.json': () => music({ method: 'user.getRecentTracks', user: 'us-0042', limit: 1 }),
  'lastfm/user-getrecenttracks-page1-nowplaying.json': () => music({ method: 'user.getRecentTracks', user: 'us-0042', limit: 50 }),
  'etherscan/account-txlist-page1.json': () => explorer({ module: 'account', action: 'txlist', address: etherscan.hotAddress, page: 1, offset: 20, sort: 'asc' }),
  'etherscan/account-txlist-page2-short.json': () => explorer({ module: 'account', action: 'txlist', address: etherscan.hotAddress, page: 2, offset: 20, sort: 'asc' }),
  'etherscan/account-txlist-one-item.json': () => explorer({ module: 'account', action: 'txlist', address: etherscan.hotAddress, startblock: 0, endblock: 0, offset: 1 }),
  'etherscan/account-txlist-unpaged.json': () => explorer({ module: 'account', action: 'txlist', address: etherscan.hotAddress }),
  // Both recordings also named a token (contractaddress), which the simulator's tokentx does not filter by.
  'etherscan/account-tokentx-address-contract.json': () => explorer({ module: 'account', action: 'tokentx', address: etherscan.hotAddress, startblock: 100, endblock: 119 }),
  'etherscan/account-tokentx-contract-100.json': () => explorer({ module: 'account', action: 'tokentx', address: etherscan.hotAddress, startblock: 100, endblock: 199, page: 1, offset: 100 }),
  'etherscan/proxy-eth_blockNumber.json': () => explorer({ module: 'proxy', action: 'eth_blockNumber' }),
  'etherscan/proxy-eth_getTransactionByHash.json': async () => explorer({ module: 'proxy', action: 'eth_getTransactionByHash', txhash: await aTxHash() }),
  'etherscan/contract-getabi.json': () => explorer({ module: 'contract', action: 'getabi', address: contract() }),
  'etherscan/contract-getsourcecode.json': () => explorer({ module: 'contract', action: 'getsourcecode', address: contract() }),
  'etherscan/contract-getsourcecode-vyper.json': () => explorer({ module: 'contract', action: 'getsourcecode', address: contract() }),
  'etherscan/contract-getsourcecode-missing-key-rate-limited.json': () => explorer({ module: 'contract', action: 'getsourcecode', address: contract() }, null),
  'etherscan/contract-getsourcecode-not-verified.json': () => explorer({ module: 'contract', action: 'getsourcecode', address: etherscan.hotAddress }),
};

/**
 * Places a real body has that the simulator does not send, each with its reason. All are of the
 * 2014 shape of inflatablefriends/lastfm's recordings, which Last.fm has since dropped: the newer
 * album.getInfo recording (duhnnie/LastFM.swift) has none of album.getInfo's, and writes the
 * track's duration and rank as numbers where the 2014 one wrote text; a simulator sending both
 * shapes of one method would match neither service.
 */
const DROPPED_SINCE_2014 = 'the 2014 shape; Last.fm no longer sends it';
const NOT_SENT: Readonly<Record<string, readonly { place: string; reason: string }[]>> = {
  'lastfm/album-getinfo.json': [
    { place: 'album.id', reason: DROPPED_SINCE_2014 },
    { place: 'album.releasedate', reason: `${DROPPED_SINCE_2014} (padded with spaces, as "    13 Sep 2005, 00:00")` },
    { place: 'album.toptags', reason: `${DROPPED_SINCE_2014}: the newer recording has tags` },
    { place: 'album.tracks.track[].mbid', reason: DROPPED_SINCE_2014 },
    { place: 'album.tracks.track[].duration', reason: 'text in the 2014 shape; the newer recording has a number, as the simulator' },
    { place: 'album.tracks.track[].@attr.rank', reason: 'text in the 2014 shape; the newer recording has a number, as the simulator' },
  ],
  'lastfm/album-search-page2.json': [{ place: 'results.albummatches.album[].id', reason: DROPPED_SINCE_2014 }],
  'lastfm/album-search-single-object.json': [{ place: 'results.albummatches.album.id', reason: DROPPED_SINCE_2014 }],
  'lastfm/artist-getinfo.json': [
    { place: 'artist.bandmembers', reason: DROPPED_SINCE_2014 },
    { place: 'artist.bio.placeformed', reason: DROPPED_SINCE_2014 },
    { place: 'artist.bio.yearformed', reason: DROPPED_SINCE_2014 },
    { place: 'artist.bio.formationlist', reason: DROPPED_SINCE_2014 },
  ],
};

/** A recorded body parsed as plain JSON: its numbers' type is what is compared. */
const realShape = (file: string) => shapeOf(JSON.parse(recordedBytes(file).toString('utf8')));

describe('the simulator answers as the real services did: the same fields, of the same JSON types', () => {
  it.each(Object.keys(ASKED))('%s: the simulator sends every field of it, of its JSON type', async (file) => {
    const { body } = await ASKED[file]!();
    const allowed = (NOT_SENT[file] ?? []).map(({ place }) => place);
    expect(describeDifferences(shapeDifferences(realShape(file), shapeOf(body), allowed))).toEqual([]);
  });
});

describe('the comparison covers the corpus', () => {
  /** Whether the simulator answers a method at all: an unknown one is Last.fm's error 3, or Etherscan's invalid action. */
  async function serves(service: string, method: string): Promise<boolean> {
    if (service === 'lastfm') return ((await music({ method })).body as { error?: number }).error !== 3;
    const [module, action] = method.split('.') as [string, string];
    return ((await explorer({ module, action })).body as { result?: unknown }).result !== 'Error! Missing Or invalid Action name';
  }

  it('compares every recorded success body of a method the simulator serves', async () => {
    const successes = realBodies.filter(({ kind }) => kind === 'success');
    const served = await Promise.all(successes.map(async ({ service, method }) => serves(service, method)));
    expect(successes.filter((_, n) => served[n]).map(({ file }) => file).sort()).toEqual(Object.keys(ASKED).sort());
  });

  it('allows only places a real body has, and that the simulator does not send', async () => {
    for (const [file, places] of Object.entries(NOT_SENT)) {
      const { body } = await ASKED[file]!();
      const real = realShape(file);
      for (const { place } of places) expect(real.has(place), `${file}: ${place}`).toBe(true);
      expect(shapeDifferences(real, shapeOf(body)).map(({ place }) => place).sort()).toEqual(places.map(({ place }) => place).sort());
    }
  });
});
