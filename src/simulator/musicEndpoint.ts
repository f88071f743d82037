import { hasValidApiKey } from './apiKey.js';
import { RECOMMENDATIONS_PER_USER, type MusicCatalogue } from './musicCatalogue.js';
import type { UserHistories } from './musicPlays.js';
import type { NameDirectory } from './nameDirectory.js';
import { pagingTotals, parsePageRequest, slicePage, type PageRequest } from './paging.js';
import { integerParam, requiredParam, type InvalidParam } from './queryParams.js';
import { errorReply, successReply, type FaultReplies, type Reply, type RequestHandler } from './reply.js';

/** Last.fm error codes the music endpoint answers with. */
export const MUSIC_ERROR = {
  invalidMethod: 3,
  invalidParameters: 6,
  invalidApiKey: 10,
  serviceOffline: 11,
  temporaryError: 16,
  rateLimitExceeded: 29,
} as const;

export interface MusicDeps {
  catalogue: MusicCatalogue;
  histories: UserHistories;
  apiKeys: ReadonlySet<string>;
}

interface MethodContext {
  params: URLSearchParams;
  page: PageRequest;
  catalogue: MusicCatalogue;
  histories: UserHistories;
}

type Method = (context: MethodContext) => Reply;

/** Where the items of each paged method sit inside `data`, Last.fm style. */
export const MUSIC_ITEM_PATHS = {
  'artist.search': ['results', 'artistmatches', 'artist'],
  'album.search': ['results', 'albummatches', 'album'],
  'track.search': ['results', 'trackmatches', 'track'],
  'artist.getSimilar': ['similarartists', 'artist'],
  'tag.getTopArtists': ['topartists', 'artist'],
  'tag.getTopTracks': ['tracks', 'track'],
  'user.getRecentTracks': ['recenttracks', 'track'],
  'user.getRecommendations': ['recommendations', 'track'],
} as const satisfies Record<string, readonly [string, ...string[]]>;

/** Methods by lower-cased name (Last.fm method names are case-insensitive). */
const METHODS: ReadonlyMap<string, Method> = new Map<string, Method>(
  Object.entries({
    'artist.search': ({ params, page, catalogue }) =>
      searchReply(catalogue.artistDirectory, params, page, MUSIC_ITEM_PATHS['artist.search'], (a) => catalogue.artist(a)),
    'album.search': ({ params, page, catalogue }) =>
      searchReply(catalogue.albumDirectory, params, page, MUSIC_ITEM_PATHS['album.search'], (j) => catalogue.album(j)),
    'track.search': ({ params, page, catalogue }) =>
      searchReply(catalogue.trackDirectory, params, page, MUSIC_ITEM_PATHS['track.search'], (t) => catalogue.track(t)),
    'artist.getInfo': ({ params, catalogue }) =>
      withNamed(params, 'artist', (q) => catalogue.findArtist(q), (a) => singleReply('artist', catalogue.artist(a))),
    'album.getInfo': ({ params, catalogue }) =>
      withNamed(params, 'album', (q) => catalogue.findAlbum(q), (j) =>
        singleReply('album', { ...catalogue.album(j), tracks: { track: catalogue.tracksOfAlbum(j).map((t) => catalogue.track(t)) } }),
      ),
    'track.getInfo': ({ params, catalogue }) =>
      withNamed(params, 'track', (q) => catalogue.findTrack(q), (t) => singleReply('track', catalogue.track(t))),
    'track.getLyrics': ({ params, catalogue }) =>
      withNamed(params, 'track', (q) => catalogue.findTrack(q), (t) => singleReply('lyrics', catalogue.lyrics(t))),
    'artist.getSimilar': ({ params, page, catalogue }) =>
      withNamed(params, 'artist', (q) => catalogue.findArtist(q), (a) => {
        const similar = catalogue.similarArtists(a);
        return pagedReply(page, similar.length, MUSIC_ITEM_PATHS['artist.getSimilar'], (n) => similar[n]);
      }),
    'tag.getTopArtists': ({ params, page, catalogue }) =>
      withNamed(params, 'tag', (q) => catalogue.findTag(q), (tag) => {
        const artists = catalogue.tagTopArtists(tag);
        return pagedReply(page, artists.length, MUSIC_ITEM_PATHS['tag.getTopArtists'], (n) => catalogue.artist(artists[n]!));
      }),
    'tag.getTopTracks': ({ params, page, catalogue }) =>
      withNamed(params, 'tag', (q) => catalogue.findTag(q), (tag) => {
        const tracks = catalogue.tagTopTracks(tag);
        return pagedReply(page, tracks.length, MUSIC_ITEM_PATHS['tag.getTopTracks'], (n) => catalogue.track(tracks[n]!));
      }),
    'user.getRecentTracks': recentTracks,
    'user.getRecommendations': ({ params, page, catalogue }) =>
      withNamed(params, 'user', (q) => catalogue.findUser(q), (user) =>
        pagedReply(page, RECOMMENDATIONS_PER_USER, MUSIC_ITEM_PATHS['user.getRecommendations'], (n) =>
          catalogue.track(catalogue.recommendedTrack(user, n)),
        ),
      ),
  } satisfies Record<string, Method>).map(([name, method]) => [name.toLowerCase(), method]),
);

/** `GET /2.0/?method=...`, Last.fm style, answered in the feedsync envelope. */
export function musicHandler(deps: MusicDeps): RequestHandler {
  return (request) => {
    const path = request.url.pathname;
    if (path !== '/2.0/' && path !== '/2.0') return errorReply(404, MUSIC_ERROR.invalidMethod, `No route ${path}`);
    if (request.method !== 'GET') return errorReply(405, MUSIC_ERROR.invalidMethod, 'Only GET is supported');
    if (!hasValidApiKey(request.headers, deps.apiKeys)) return errorReply(401, MUSIC_ERROR.invalidApiKey, 'Invalid API key');
    const params = request.url.searchParams;
    const name = params.get('method') ?? '';
    const method = METHODS.get(name.toLowerCase());
    if (method === undefined) {
      return errorReply(400, MUSIC_ERROR.invalidMethod, `Invalid Method - No method with the name "${name}"`);
    }
    const page = parsePageRequest(params);
    if (!page.ok) return invalidParameters(page.error);
    return method({ params, page: page.value, catalogue: deps.catalogue, histories: deps.histories });
  };
}

export const musicFaultReplies: FaultReplies = {
  outage: () => errorReply(503, MUSIC_ERROR.serviceOffline, 'Service Offline - This service is temporarily offline. Try again later.'),
  serverError: (status) =>
    errorReply(status, MUSIC_ERROR.serviceOffline, 'Service Offline - This service is temporarily offline. Try again later.'),
  tooManyRequests: () =>
    errorReply(429, MUSIC_ERROR.rateLimitExceeded, 'Rate Limit Exceeded - Your IP has made too many requests in a short period'),
  errorEnvelope: (pick) =>
    pick < 0.5
      ? errorReply(200, MUSIC_ERROR.rateLimitExceeded, 'Rate Limit Exceeded')
      : errorReply(200, MUSIC_ERROR.temporaryError, 'There was a temporary error processing your request. Please try again'),
};

function invalidParameters(error: InvalidParam): Reply {
  return errorReply(400, MUSIC_ERROR.invalidParameters, `Invalid parameters - ${error.message}`);
}

/** Runs `found` with the index `q` names, or answers as Last.fm does: HTTP 200, error 6. */
function withNamed(params: URLSearchParams, kind: string, find: (q: string) => number | undefined, found: (index: number) => Reply): Reply {
  const q = requiredParam(params, 'q');
  if (!q.ok) return invalidParameters(q.error);
  const index = find(q.value);
  if (index === undefined) return errorReply(200, MUSIC_ERROR.invalidParameters, `The ${kind} you supplied could not be found`);
  return found(index);
}

/** A single-object answer still carries paging totals (one item on one page). */
function singleReply(key: string, record: unknown): Reply {
  return successReply({ page: 1, perPage: 1, total: 1, totalPages: 1, [key]: record });
}

function pagedReply(page: PageRequest, total: number, path: readonly [string, ...string[]], itemAt: (n: number) => unknown): Reply {
  const slice = slicePage(page, total);
  const items = Array.from({ length: slice.count }, (_, n) => itemAt(slice.offset + n));
  const nested = path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), items) as Record<string, unknown>;
  return successReply({ ...pagingTotals(slice), ...nested });
}

/** An empty or absent q lists everything, so a client can page through the whole catalogue. */
function searchReply(
  directory: NameDirectory,
  params: URLSearchParams,
  page: PageRequest,
  path: readonly [string, ...string[]],
  record: (index: number) => unknown,
): Reply {
  const matches = directory.search((params.get('q') ?? '').trim());
  return pagedReply(page, matches.length, path, (n) => record(matches[n]!));
}

/** Newest first; optional `from`/`to` (unix seconds, inclusive) narrow the window, as on Last.fm. */
function recentTracks({ params, page, catalogue, histories }: MethodContext): Reply {
  const from = integerParam(params, 'from', { min: 0, fallback: 0 });
  if (!from.ok) return invalidParameters(from.error);
  const to = integerParam(params, 'to', { min: 0, fallback: Number.MAX_SAFE_INTEGER });
  if (!to.ok) return invalidParameters(to.error);
  return withNamed(params, 'user', (q) => catalogue.findUser(q), (user) => {
    const { first, end } = histories.playsBetween(user, from.value, to.value);
    return pagedReply(page, end - first, MUSIC_ITEM_PATHS['user.getRecentTracks'], (n) => histories.play(user, end - 1 - n));
  });
}
