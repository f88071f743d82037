import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MUSIC_ITEM_PATHS } from '../../../src/simulator/music/musicEndpoint.js';
import { startSimulator, type Simulator } from '../../../src/simulator/startSimulator.js';
import { getBody, musicUrl } from '../httpClient.js';

type Attr = Record<'page' | 'perPage' | 'totalPages' | 'total', string>;
type Play = Record<string, unknown> & { name: string; url: string; '@attr'?: { nowplaying: string } };
type RecentTracks = { recenttracks: { track: Play[] | Play; '@attr': Attr } };
type ArtistSearch = {
  results: Record<`opensearch:${'totalResults' | 'startIndex' | 'itemsPerPage'}`, string> & {
    'opensearch:Query': Record<string, string>;
    artistmatches: { artist: { url: string }[] | { url: string } };
    '@attr': { for: string };
  };
};
type LastfmError = { error: number; message: string };

const SUSPENDED_KEY = 'sim-key-suspended';
let simulator: Simulator;

beforeAll(async () => {
  simulator = await startSimulator({ seed: 11, dialect: 'lastfm', suspendedKeys: [SUSPENDED_KEY], music: { artists: 2000, users: 50, playsPerUser: 300 } });
});

afterEach(() => {
  simulator.reset();
});

afterAll(async () => {
  await simulator.close();
});

/** A Last.fm request: format=json and the key in api_key, unless the params say otherwise. */
const call = <Body>(params: Record<string, string | number>) => getBody<Body>(musicUrl(simulator, { format: 'json', api_key: simulator.apiKey, ...params }));

const asList = <T>(items: T[] | T): T[] => (Array.isArray(items) ? items : [items]);

describe('lastfm dialect: success bodies', () => {
  it('answers user.getRecentTracks with the bare recenttracks object, its paging in @attr as strings', async () => {
    const { status, body } = await call<RecentTracks>({ method: 'user.getRecentTracks', q: 'us-0003', limit: 5, page: 2 });
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['recenttracks']);
    expect(body.recenttracks.track).toHaveLength(5);
    const attr = body.recenttracks['@attr'];
    expect(attr).toMatchObject({ page: '2', perPage: '5' });
    expect(attr.total).toMatch(/^\d+$/);
    expect(attr.totalPages).toBe(String(Math.ceil(Number(attr.total) / 5)));
  });

  it('answers the search methods with their totals in OpenSearch fields, and only what was searched for in @attr', async () => {
    const { body } = await call<ArtistSearch>({ method: 'artist.search', q: 'wolf', limit: 7, page: 2 });
    const { results } = body;
    expect(results['@attr']).toEqual({ for: 'wolf' });
    expect(results['opensearch:Query']).toEqual({ '#text': '', role: 'request', searchTerms: 'wolf', startPage: '2' });
    expect(results['opensearch:totalResults']).toMatch(/^[1-9]\d*$/);
    expect(results['opensearch:startIndex']).toBe('7');
    expect(results['opensearch:itemsPerPage']).toBe('7');
  });

  it.each(Object.entries(MUSIC_ITEM_PATHS).filter(([method]) => !method.endsWith('.search')))('puts page, perPage, totalPages and total in %s’s @attr', async (method, path) => {
    const subject = { 'artist.getSimilar': 'ar-000005', 'artist.getTopAlbums': 'ar-000005', 'tag.getTopArtists': 'rock', 'tag.getTopTracks': 'rock', 'user.getRecentTracks': 'us-0003' }[method] ?? 'us-0001';
    const { body } = await call<Record<string, { '@attr': Attr }>>({ method, q: subject, limit: 3, page: 2 });
    const attr = body[path[0]]!['@attr'];
    expect(Object.keys(attr).slice(-4)).toEqual(['page', 'perPage', 'totalPages', 'total']);
    expect(attr).toMatchObject({ page: '2', perPage: '3' });
    expect(Number(attr.totalPages)).toBe(Math.ceil(Number(attr.total) / 3));
  });

  it.each([
    ['tag.getTopArtists', 'rock', 'tag', 'rock'],
    ['artist.getSimilar', 'ar-000005', 'artist', 'the artist’s name'],
    ['user.getRecentTracks', 'us-0003', 'user', 'the user’s name'],
  ])('names what %s lists first in its @attr, as Last.fm does: %s as %s', async (method, subject, name, _value) => {
    const { body } = await call<Record<string, { '@attr': Record<string, string> }>>({ method, q: subject, limit: 3 });
    const attr = Object.values(body)[0]!['@attr'];
    expect(Object.keys(attr)[0]).toBe(name);
    expect(attr[name]).not.toBe('');
  });

  it('answers getInfo with the bare record, named and linked as Last.fm does', async () => {
    const { body } = await call<{ artist: { name: string; url: string } }>({ method: 'artist.getInfo', q: 'ar-000005' });
    expect(Object.keys(body)).toEqual(['artist']);
    expect(body.artist.url).toBe(`https://www.last.fm/music/${encodeURIComponent(body.artist.name).replace(/%20/g, '+')}`);
  });

  it('reads the subject from Last.fm’s own parameter (user= for user.*) as from q', async () => {
    const [byUser, byQ] = await Promise.all([
      call({ method: 'user.getRecentTracks', user: 'us-0003', limit: 5, page: 2 }),
      call({ method: 'user.getRecentTracks', q: 'us-0003', limit: 5, page: 2 }),
    ]);
    expect(byUser.text).toBe(byQ.text);
  });
});

describe('lastfm dialect: the key', () => {
  it('accepts the key in ?api_key=', async () => {
    const { status, body } = await call<Record<string, unknown>>({ method: 'artist.getInfo', q: 'ar-000001' });
    expect(status).toBe(200);
    expect(body).not.toHaveProperty('error');
  });

  it('refuses a Bearer header alone as a missing key: 403, error 10', async () => {
    const { status, body } = await getBody(musicUrl(simulator, { format: 'json', method: 'artist.getInfo', q: 'ar-000001' }), {
      authorization: `Bearer ${simulator.apiKey}`,
    });
    expect(status).toBe(403);
    expect(body).toEqual({ error: 10, message: 'Invalid API key - You must be granted a valid key by last.fm' });
  });

  it('refuses an unknown api_key: 403, error 10', async () => {
    const { status, body } = await call<LastfmError>({ method: 'artist.getInfo', q: 'ar-000001', api_key: 'not-the-key' });
    expect(status).toBe(403);
    expect(body.error).toBe(10);
  });

  it('refuses a suspended key: 403, error 26', async () => {
    const { status, body } = await call({ method: 'artist.getInfo', q: 'ar-000001', api_key: SUSPENDED_KEY });
    expect(status).toBe(403);
    expect(body).toEqual({ error: 26, message: 'Suspended API key - Access for your account has been suspended, please contact Last.fm' });
  });
});

describe('lastfm dialect: error bodies', () => {
  it('refuses a request without format=json: 400, error 6', async () => {
    const { status, body } = await call({ method: 'artist.getInfo', q: 'ar-000001', format: '' });
    expect(status).toBe(400);
    expect(body).toEqual({ error: 6, message: 'Invalid parameters - this simulator only serves format=json' });
  });

  it('refuses an unknown method: 400, error 3', async () => {
    const { status, body } = await call<LastfmError>({ method: 'artist.getEverything' });
    expect(status).toBe(400);
    expect(body).toEqual({ error: 3, message: 'Invalid Method - No method with that name in this package' });
  });

  it('refuses a bad limit: 400, error 6', async () => {
    const { status, body } = await call<LastfmError>({ method: 'artist.search', q: 'a', limit: 0 });
    expect(status).toBe(400);
    expect(body.error).toBe(6);
  });

  it('answers a name that matches nothing: 200, error 6', async () => {
    const { status, body } = await call({ method: 'artist.getInfo', q: 'No Such Artist Anywhere' });
    expect(status).toBe(200);
    expect(body).toEqual({ error: 6, message: 'The artist you supplied could not be found' });
  });

  it('answers tooManyRequests with 429, error 29 and Retry-After', async () => {
    simulator.setFaults('music', { sequence: ['tooManyRequests'], retryAfter: { seconds: 3 } });
    const { status, headers, body } = await call({ method: 'artist.getInfo', q: 'ar-000001' });
    expect(status).toBe(429);
    expect(headers.get('retry-after')).toBe('3');
    expect(body).toEqual({ error: 29, message: 'Rate Limit Exceeded - Your IP has made too many requests in a short period' });
  });

  it('answers an outage with 503, error 11', async () => {
    simulator.setFaults('music', { outage: { forMs: 60_000 } });
    const { status, body } = await call({ method: 'artist.getInfo', q: 'ar-000001' });
    expect(status).toBe(503);
    expect(body).toEqual({ error: 11, message: 'Service Offline - This service is temporarily offline. Try again later.' });
  });

  it('answers serverError with its status, error 11', async () => {
    simulator.setFaults('music', { sequence: ['serverError'], serverErrorStatuses: [502] });
    const { status, body } = await call<LastfmError>({ method: 'artist.getInfo', q: 'ar-000001' });
    expect(status).toBe(502);
    expect(body.error).toBe(11);
  });

  it('answers errorEnvelope with HTTP 200 and error 29 or 16', async () => {
    simulator.setFaults('music', { shares: { errorEnvelope: 1 } });
    const answers = [];
    for (let i = 0; i < 12; i++) answers.push(await call<LastfmError>({ method: 'artist.getInfo', q: 'ar-000001' }));
    expect(new Set(answers.map(({ status }) => status))).toEqual(new Set([200]));
    expect(new Set(answers.map(({ body }) => body.error))).toEqual(new Set([16, 29]));
    expect(answers.find(({ body }) => body.error === 16)!.body.message).toBe('There was a temporary error processing your request. Please try again');
  });
});

describe('lastfm dialect: list quirks', () => {
  it('returns a page of one artist as that object, not an array', async () => {
    const { body } = await call<ArtistSearch>({ method: 'artist.search', q: '', limit: 1, page: 2 });
    const artist = body.results.artistmatches.artist;
    expect(Array.isArray(artist)).toBe(false);
    expect((artist as { url: string }).url).toMatch(/^https:\/\/www\.last\.fm\/music\//);
  });

  it('returns a page of one play (past page 1) as that object, not an array', async () => {
    const { body } = await call<RecentTracks>({ method: 'user.getRecentTracks', q: 'us-0003', limit: 1, page: 3 });
    expect(Array.isArray(body.recenttracks.track)).toBe(false);
    expect(body.recenttracks.track).toHaveProperty('date');
  });

  it('returns an empty result as an empty array with zero totals', async () => {
    const { body } = await call<ArtistSearch>({ method: 'artist.search', q: 'zzqqxx' });
    expect(body.results.artistmatches.artist).toEqual([]);
    expect(body.results['opensearch:totalResults']).toBe('0');
  });
});

describe('lastfm dialect: the track playing now', () => {
  it('starts page 1 of user.getRecentTracks with the newest track, marked nowplaying and without date', async () => {
    const { body } = await call<RecentTracks>({ method: 'user.getRecentTracks', q: 'us-0003', limit: 5 });
    const [playing, newest] = asList(body.recenttracks.track);
    expect(playing!['@attr']).toEqual({ nowplaying: 'true' });
    expect(playing).not.toHaveProperty('date');
    const { date: _date, uts: _uts, ...untimed } = newest!;
    const { '@attr': _attr, ...playingTrack } = playing!;
    expect(playingTrack).toEqual(untimed);
  });

  it('does not count the track playing now in total or in the page size', async () => {
    const { body } = await call<RecentTracks>({ method: 'user.getRecentTracks', q: 'us-0003', limit: 1000 });
    expect(asList(body.recenttracks.track)).toHaveLength(Number(body.recenttracks['@attr'].total) + 1);
  });

  it('shows no track playing now past page 1', async () => {
    const { body } = await call<RecentTracks>({ method: 'user.getRecentTracks', q: 'us-0003', limit: 5, page: 2 });
    expect(asList(body.recenttracks.track).some((track) => track['@attr'] !== undefined)).toBe(false);
  });
});
