import type { ApiKeys } from '../server/ApiKeys.js';
import { RECOMMENDATIONS_PER_USER, type MusicCatalogue } from './MusicCatalogue.js';
import type { UserHistories } from './UserHistories.js';
import type { MusicAnswer, MusicFailure, MusicListMethod, MusicListing, MusicWire } from './musicWire.js';
import type { NameDirectory } from './NameDirectory.js';
import { parsePageRequest, slicePage, type PageRequest } from '../server/paging.js';
import { integerParam, requiredParam, type InvalidParam } from '../server/queryParams.js';
import type { RequestHandler, SimRequest } from '../server/reply.js';

export interface MusicDeps {
  catalogue: MusicCatalogue;
  histories: UserHistories;
  apiKeys: ApiKeys;
  /** The dialect's wire format for this endpoint. */
  wire: MusicWire;
}

interface MethodContext {
  params: URLSearchParams;
  page: PageRequest;
  catalogue: MusicCatalogue;
  histories: UserHistories;
}

type Method = (context: MethodContext) => MusicAnswer;

/** Where the items of each paged method sit, Last.fm style. */
export const MUSIC_ITEM_PATHS = {
  'artist.search': ['results', 'artistmatches', 'artist'],
  'album.search': ['results', 'albummatches', 'album'],
  'track.search': ['results', 'trackmatches', 'track'],
  'artist.getSimilar': ['similarartists', 'artist'],
  'artist.getTopAlbums': ['topalbums', 'album'],
  'tag.getTopArtists': ['topartists', 'artist'],
  'tag.getTopTracks': ['tracks', 'track'],
  'user.getRecentTracks': ['recenttracks', 'track'],
  'user.getRecommendations': ['recommendations', 'track'],
} as const satisfies Record<string, readonly [string, string, ...string[]]>;

/** Methods by lower-cased name (Last.fm method names are case-insensitive). */
const METHODS: ReadonlyMap<string, Method> = new Map<string, Method>(
  Object.entries({
    'artist.search': ({ params, page, catalogue }) =>
      searchListing(catalogue.artistDirectory, params, page, 'artist.search', (a) => catalogue.artist(a)),
    'album.search': ({ params, page, catalogue }) =>
      searchListing(catalogue.albumDirectory, params, page, 'album.search', (j) => catalogue.album(j)),
    'track.search': ({ params, page, catalogue }) =>
      searchListing(catalogue.trackDirectory, params, page, 'track.search', (t) => catalogue.track(t)),
    'artist.getInfo': ({ params, catalogue }) =>
      withNamed(params, 'artist', (q) => catalogue.findArtist(q), (a) => record('artist', catalogue.artist(a))),
    'album.getInfo': albumInfo,
    'track.getInfo': ({ params, catalogue }) =>
      withNamed(params, 'track', (q) => catalogue.findTrack(q), (t) => record('track', catalogue.track(t))),
    'track.getLyrics': ({ params, catalogue }) =>
      withNamed(params, 'track', (q) => catalogue.findTrack(q), (t) => record('lyrics', catalogue.lyrics(t))),
    'artist.getSimilar': ({ params, page, catalogue }) =>
      withNamed(params, 'artist', (q) => catalogue.findArtist(q), (a) => {
        const similar = catalogue.similarArtists(a);
        return { ...listing(page, similar.length, 'artist.getSimilar', (n) => similar[n]), of: catalogue.artist(a).name };
      }),
    'artist.getTopAlbums': ({ params, page, catalogue }) =>
      withNamed(params, 'artist', (q) => catalogue.findArtist(q), (a) => {
        const perArtist = catalogue.counts.albums / catalogue.counts.artists;
        return { ...listing(page, perArtist, 'artist.getTopAlbums', (n) => catalogue.album(a * perArtist + n)), of: catalogue.artist(a).name };
      }),
    'tag.getTopArtists': ({ params, page, catalogue }) =>
      withNamed(params, 'tag', (q) => catalogue.findTag(q), (tag) => {
        const artists = catalogue.tagTopArtists(tag);
        return { ...listing(page, artists.length, 'tag.getTopArtists', (n) => catalogue.artist(artists[n]!)), of: catalogue.tagName(tag) };
      }),
    'tag.getTopTracks': ({ params, page, catalogue }) =>
      withNamed(params, 'tag', (q) => catalogue.findTag(q), (tag) => {
        const tracks = catalogue.tagTopTracks(tag);
        return { ...listing(page, tracks.length, 'tag.getTopTracks', (n) => catalogue.track(tracks[n]!)), of: catalogue.tagName(tag) };
      }),
    'user.getRecentTracks': recentTracks,
    'user.getRecommendations': ({ params, page, catalogue }) =>
      withNamed(params, 'user', (q) => catalogue.findUser(q), (user) => ({
        ...listing(page, RECOMMENDATIONS_PER_USER, 'user.getRecommendations', (n) => catalogue.track(catalogue.recommendedTrack(user, n))),
        of: catalogue.userName(user),
      })),
  } satisfies Record<string, Method>).map(([name, method]) => [name.toLowerCase(), method]),
);

/** `GET /2.0/?method=...`, Last.fm style; the wire decides how the answer looks and where the key goes. */
export function musicHandler(deps: MusicDeps): RequestHandler {
  return (request) => deps.wire.reply(musicAnswer(deps, request), deps.catalogue);
}

function musicAnswer({ catalogue, histories, apiKeys, wire }: MusicDeps, request: SimRequest): MusicAnswer {
  const path = request.url.pathname;
  if (path !== '/2.0/' && path !== '/2.0') return { kind: 'noRoute', path };
  if (request.method !== 'GET') return { kind: 'methodNotAllowed' };
  const standing = apiKeys.standingOf(wire.apiKeyOf(request));
  if (standing === 'suspended') return { kind: 'suspendedKey' };
  if (standing !== 'valid') return { kind: 'invalidKey' };
  const name = request.url.searchParams.get('method') ?? '';
  const method = METHODS.get(name.toLowerCase());
  if (method === undefined) return { kind: 'unknownMethod', name };
  const params = wire.readParams(name.toLowerCase(), request.url.searchParams);
  if (!params.ok) return invalidParameters(params.error);
  const page = parsePageRequest(params.value);
  if (!page.ok) return invalidParameters(page.error);
  return method({ params: params.value, page: page.value, catalogue, histories });
}

function invalidParameters(error: InvalidParam): MusicFailure {
  return { kind: 'invalidParams', message: error.message };
}

/** Runs `found` with the index `q` names, or answers that nothing of that kind has the name. */
function withNamed(params: URLSearchParams, what: string, find: (q: string) => number | undefined, found: (index: number) => MusicAnswer): MusicAnswer {
  const q = requiredParam(params, 'q');
  if (!q.ok) return invalidParameters(q.error);
  const index = find(q.value);
  if (index === undefined) return { kind: 'notFound', what };
  return found(index);
}

function record(key: string, value: unknown): MusicAnswer {
  return { kind: 'record', key, record: value };
}

function listing(page: PageRequest, total: number, method: MusicListMethod, itemAt: (n: number) => unknown): MusicListing {
  const slice = slicePage(page, total);
  return { kind: 'listing', method, path: MUSIC_ITEM_PATHS[method], slice, items: Array.from({ length: slice.count }, (_, n) => itemAt(slice.offset + n)) };
}

/** An empty or absent q lists everything, so a client can page through the whole catalogue. */
function searchListing(
  directory: NameDirectory,
  params: URLSearchParams,
  page: PageRequest,
  method: MusicListMethod,
  recordAt: (index: number) => unknown,
): MusicListing {
  const searchTerms = (params.get('q') ?? '').trim();
  const matches = directory.search(searchTerms);
  return { ...listing(page, matches.length, method, (n) => recordAt(matches[n]!)), searchTerms };
}

/** The album with its tracks; with `username`, also how often that user played it (Last.fm's userplaycount). */
function albumInfo({ params, catalogue, histories }: MethodContext): MusicAnswer {
  const username = params.get('username');
  const user = username === null ? undefined : catalogue.findUser(username);
  if (username !== null && user === undefined) return { kind: 'notFound', what: 'user' };
  return withNamed(params, 'album', (q) => catalogue.findAlbum(q), (j) =>
    record('album', {
      ...catalogue.album(j),
      tracks: { track: catalogue.tracksOfAlbum(j).map((t) => catalogue.track(t)) },
      ...(user !== undefined && { userplaycount: histories.albumPlays(user, j) }),
    }),
  );
}

/** Newest first; optional `from`/`to` (unix seconds, inclusive) narrow the window, as on Last.fm. */
function recentTracks({ params, page, catalogue, histories }: MethodContext): MusicAnswer {
  const from = integerParam(params, 'from', { min: 0, fallback: 0 });
  if (!from.ok) return invalidParameters(from.error);
  const to = integerParam(params, 'to', { min: 0, fallback: Number.MAX_SAFE_INTEGER });
  if (!to.ok) return invalidParameters(to.error);
  return withNamed(params, 'user', (q) => catalogue.findUser(q), (user) => {
    const { first, end } = histories.playsBetween(user, from.value, to.value);
    const plays = listing(page, end - first, 'user.getRecentTracks', (n) => histories.play(user, end - 1 - n));
    // Whatever the window, the newest play is what the user is listening to now.
    return { ...plays, of: catalogue.userName(user), newestPlay: histories.play(user, histories.playCount(user) - 1) };
  });
}
