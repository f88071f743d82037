import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../src/simulator/startSimulator.js';
import { getJson, musicUrl } from '../httpClient.js';

interface Paged {
  page: number;
  perPage: number;
  total: number;
  totalPages: number;
}

interface Named {
  id: string;
  name: string;
  mbid: string;
  url: string;
  listeners: number;
  playcount: number;
  tags: string[];
}

interface TrackItem extends Named {
  artist: string;
  album: string;
  duration: number;
}

type ArtistSearch = Paged & { results: { artistmatches: { artist: Named[] } } };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let simulator: Simulator;

beforeAll(async () => {
  simulator = await startSimulator({ seed: 11, music: { artists: 2000, users: 50, playsPerUser: 300 } });
});

afterAll(async () => {
  await simulator.close();
});

const call = <Data>(params: Record<string, string | number>, key: string | null = simulator.apiKey) =>
  getJson<Data>(musicUrl(simulator, params), key);

describe('music endpoint: methods', () => {
  it('artist.search returns artists whose name contains q, case-insensitively', async () => {
    const { status, body } = await call<ArtistSearch>({ method: 'artist.search', q: 'VELVET', limit: 1000 });
    expect(status).toBe(200);
    expect(body.status).toBe('success');
    const artists = body.data.results.artistmatches.artist;
    expect(artists.length).toBeGreaterThan(0);
    expect(body.data.total).toBe(artists.length);
    expect(artists.every((artist) => artist.name.toLowerCase().includes('velvet'))).toBe(true);
    expect(artists[0]!.id).toMatch(/^ar-\d{6}$/);
    expect(artists[0]!.mbid).toMatch(UUID);
    expect(artists[0]!.url).toContain('last.fm');
  });

  it('album.search returns albums under results.albummatches.album', async () => {
    const { body } = await call<Paged & { results: { albummatches: { album: (Named & { artist: string })[] } } }>({ method: 'album.search', q: 'songs for', limit: 5 });
    const albums = body.data.results.albummatches.album;
    expect(albums).toHaveLength(5);
    expect(albums.every((album) => album.name.toLowerCase().includes('songs for') && album.artist !== '')).toBe(true);
  });

  it('track.search returns tracks with duration, album and artist', async () => {
    const { body } = await call<Paged & { results: { trackmatches: { track: TrackItem[] } } }>({ method: 'track.search', q: 'blues', limit: 3 });
    const tracks = body.data.results.trackmatches.track;
    expect(tracks).toHaveLength(3);
    for (const track of tracks) {
      expect(track.name).toMatch(/blues/i);
      expect(track.duration).toBeGreaterThan(0);
      expect(track.album).not.toBe('');
    }
  });

  it('artist.getInfo returns the artist named by q, with paging totals of one', async () => {
    const found = await call<ArtistSearch>({ method: 'artist.search', q: 'the', limit: 1 });
    const name = found.body.data.results.artistmatches.artist[0]!.name;
    const { body } = await call<Paged & { artist: Named }>({ method: 'artist.getInfo', q: name });
    expect(body.data).toMatchObject({ page: 1, perPage: 1, total: 1, totalPages: 1, artist: { name } });
  });

  it('album.getInfo returns the album with its tracks', async () => {
    const { body } = await call<{ album: Named & { tracks: { track: TrackItem[] }; trackCount: number } }>({ method: 'album.getInfo', q: 'al-0000010' });
    expect(body.data.album.id).toBe('al-0000010');
    expect(body.data.album.tracks.track).toHaveLength(body.data.album.trackCount);
    expect(body.data.album.tracks.track.every((track) => track.album === body.data.album.name)).toBe(true);
  });

  it('track.getInfo returns the track named by q', async () => {
    const { body } = await call<{ track: TrackItem }>({ method: 'track.getInfo', q: 'tr-0000042' });
    expect(body.data.track.id).toBe('tr-0000042');
    expect(body.data.track.mbid).toMatch(UUID);
  });

  it('track.getLyrics returns text and language for the track', async () => {
    const { body } = await call<{ lyrics: { track: string; artist: string; text: string; language: string } }>({ method: 'track.getLyrics', q: 'tr-0000042' });
    const info = await call<{ track: TrackItem }>({ method: 'track.getInfo', q: 'tr-0000042' });
    expect(body.data.lyrics).toMatchObject({ track: info.body.data.track.name, artist: info.body.data.track.artist });
    expect(body.data.lyrics.text.split('\n').length).toBeGreaterThan(1);
    expect(body.data.lyrics.language).toMatch(/^[a-z]{2}$/);
  });

  it('artist.getSimilar returns other artists ordered by a match score in (0, 1]', async () => {
    const { body } = await call<Paged & { similarartists: { artist: (Named & { match: number })[] } }>({ method: 'artist.getSimilar', q: 'ar-000005', limit: 1000 });
    const similar = body.data.similarartists.artist;
    expect(similar.length).toBeGreaterThan(10);
    expect(similar.some((artist) => artist.id === 'ar-000005')).toBe(false);
    expect(similar.every((artist, i) => artist.match > 0 && artist.match <= 1 && (i === 0 || artist.match <= similar[i - 1]!.match))).toBe(true);
  });

  it('artist.getTopAlbums returns the albums of that artist and no other', async () => {
    const { body } = await call<Paged & { topalbums: { album: (Named & { artistId: string })[] } }>({ method: 'artist.getTopAlbums', q: 'ar-000005', limit: 1000 });
    const albums = body.data.topalbums.album;
    expect(albums.length).toBeGreaterThan(0);
    expect(albums.every((album) => album.artistId === 'ar-000005')).toBe(true);
    expect(body.data.total).toBe(albums.length);
  });

  it('tag.getTopArtists returns artists carrying the tag, most listened first', async () => {
    const { body } = await call<Paged & { topartists: { artist: Named[] } }>({ method: 'tag.getTopArtists', q: 'rock', limit: 1000 });
    const artists = body.data.topartists.artist;
    expect(artists.length).toBeGreaterThan(0);
    expect(artists.every((artist, i) => artist.tags.includes('rock') && (i === 0 || artist.listeners <= artists[i - 1]!.listeners))).toBe(true);
  });

  it('tag.getTopTracks returns tracks carrying the tag, most played first', async () => {
    const { body } = await call<Paged & { tracks: { track: TrackItem[] } }>({ method: 'tag.getTopTracks', q: 'jazz', limit: 50 });
    const tracks = body.data.tracks.track;
    expect(tracks).toHaveLength(50);
    expect(tracks.every((track, i) => track.tags.includes('jazz') && (i === 0 || track.playcount <= tracks[i - 1]!.playcount))).toBe(true);
  });

  it('user.getRecentTracks returns plays newest first with date and uts', async () => {
    const { body } = await call<Paged & { recenttracks: { track: { id: string; uts: number; date: string; name: string; artist: string; album: string; mbid: string }[] } }>(
      { method: 'user.getRecentTracks', q: 'us-0003', limit: 100 },
    );
    const plays = body.data.recenttracks.track;
    expect(body.data.total).toBeGreaterThanOrEqual(150);
    expect(plays).toHaveLength(100);
    for (const [i, play] of plays.entries()) {
      expect(new Date(play.date).getTime()).toBe(play.uts * 1000);
      if (i > 0) expect(play.uts).toBeLessThan(plays[i - 1]!.uts);
      expect(play.mbid).toMatch(UUID);
    }
  });

  it('user.getRecentTracks narrows to the from/to window', async () => {
    const all = await call<Paged & { recenttracks: { track: { uts: number }[] } }>({ method: 'user.getRecentTracks', q: 'us-0003', limit: 20 });
    const plays = all.body.data.recenttracks.track;
    const from = plays[15]!.uts;
    const to = plays[5]!.uts;
    const { body } = await call<Paged & { recenttracks: { track: { uts: number }[] } }>({ method: 'user.getRecentTracks', q: 'us-0003', from, to });
    expect(body.data.recenttracks.track.map((play) => play.uts)).toEqual(plays.slice(5, 16).map((play) => play.uts));
  });

  it('user.getRecommendations returns tracks for the user', async () => {
    const { body } = await call<Paged & { recommendations: { track: TrackItem[] } }>({ method: 'user.getRecommendations', q: 'us-0001', limit: 10 });
    expect(body.data.total).toBeGreaterThan(10);
    expect(body.data.recommendations.track).toHaveLength(10);
  });

  it('answers an unknown name as Last.fm does: HTTP 200, error 6', async () => {
    const { status, body } = await call({ method: 'artist.getInfo', q: 'No Such Artist Anywhere' });
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'error', data: { error: 6 } });
  });

  it('rejects an unknown method with 400', async () => {
    const { status, body } = await call({ method: 'artist.getEverything', q: 'x' });
    expect(status).toBe(400);
    expect(body.status).toBe('error');
  });

  it('rejects a method that needs q when q is missing with 400, error 6', async () => {
    const { status, body } = await call({ method: 'track.getInfo' });
    expect(status).toBe(400);
    expect(body.data).toEqual({ error: 6 });
  });
});

describe('music endpoint: API key', () => {
  it('answers a request without a key with 401, error 10', async () => {
    const { status, body } = await call({ method: 'artist.search', q: 'a' }, null);
    expect(status).toBe(401);
    expect(body).toEqual({ status: 'error', data: { error: 10 }, message: 'Invalid API key' });
  });

  it('answers a request with a wrong key with 401, error 10', async () => {
    const { status, body } = await call({ method: 'artist.search', q: 'a' }, 'not-the-key');
    expect(status).toBe(401);
    expect(body.data).toEqual({ error: 10 });
  });
});

describe('music endpoint: paging', () => {
  it('returns the remainder on the last page and carries the totals', async () => {
    const first = await call<ArtistSearch>({ method: 'artist.search', q: 'a', limit: 1000 });
    const { total, totalPages } = first.body.data;
    expect(totalPages).toBe(Math.ceil(total / 1000));
    const last = await call<ArtistSearch>({ method: 'artist.search', q: 'a', limit: 1000, page: totalPages });
    expect(last.body.data.results.artistmatches.artist).toHaveLength(total - (totalPages - 1) * 1000);
  });

  it('pages through a search without gaps or repeats', async () => {
    const whole = await call<ArtistSearch>({ method: 'artist.search', q: 'wolf', limit: 1000 });
    expect(whole.body.data.total).toBeGreaterThan(7 * 2);
    const ids: string[] = [];
    for (let page = 1; page <= Math.ceil(whole.body.data.total / 7); page++) {
      const { body } = await call<ArtistSearch>({ method: 'artist.search', q: 'wolf', limit: 7, page });
      ids.push(...body.data.results.artistmatches.artist.map((artist) => artist.id));
    }
    expect(ids).toEqual(whole.body.data.results.artistmatches.artist.map((artist) => artist.id));
  });

  it('returns an empty list with success for a page past the end', async () => {
    const { status, body } = await call<ArtistSearch>({ method: 'artist.search', q: 'a', limit: 1000, page: 99 });
    expect(status).toBe(200);
    expect(body.status).toBe('success');
    expect(body.data.results.artistmatches.artist).toEqual([]);
    expect(body.data.total).toBeGreaterThan(0);
  });

  it('returns an empty result for a search nothing matches', async () => {
    const { body } = await call<ArtistSearch>({ method: 'artist.search', q: 'zzqqxx' });
    expect(body.data).toMatchObject({ total: 0, totalPages: 0, results: { artistmatches: { artist: [] } } });
  });

  it.each([['0'], ['1001'], ['abc'], ['2.5']])('rejects limit=%s with 400, error 6', async (limit) => {
    const { status, body } = await call({ method: 'artist.search', q: 'a', limit });
    expect(status).toBe(400);
    expect(body.data).toEqual({ error: 6 });
  });

  it('rejects page=0 with 400', async () => {
    const { status } = await call({ method: 'artist.search', q: 'a', page: 0 });
    expect(status).toBe(400);
  });

  it('defaults limit to 50', async () => {
    const { body } = await call<ArtistSearch>({ method: 'artist.search', q: '' });
    expect(body.data.perPage).toBe(50);
    expect(body.data.results.artistmatches.artist).toHaveLength(50);
  });
});

describe('music endpoint: determinism', () => {
  it('answers byte-identically from two simulators with the same seed, and differently with another seed', async () => {
    const params = { method: 'user.getRecentTracks', q: 'us-0002', limit: 200, page: 2 };
    const twin = await startSimulator({ seed: 11, music: { artists: 2000, users: 50, playsPerUser: 300 } });
    const other = await startSimulator({ seed: 12, music: { artists: 2000, users: 50, playsPerUser: 300 } });
    try {
      const [mine, twins, others] = await Promise.all([
        call(params),
        getJson(musicUrl(twin, params), twin.apiKey),
        getJson(musicUrl(other, { ...params, q: 'us-0002' }), other.apiKey),
      ]);
      expect(twins.text).toBe(mine.text);
      expect(others.text).not.toBe(mine.text);
    } finally {
      await Promise.all([twin.close(), other.close()]);
    }
  });
});
