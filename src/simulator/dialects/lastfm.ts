import type { MusicCatalogue } from '../music/MusicCatalogue.js';
import type { AlbumRecord, ArtistRecord, SimilarArtistRecord, TrackRecord } from '../music/musicRecords.js';
import type { PlayRecord } from '../music/UserHistories.js';
import type { MusicAnswer, MusicListMethod, MusicListing, MusicRecord, MusicWire } from '../music/musicWire.js';
import type { PageSlice } from '../server/paging.js';
import type { ParamResult } from '../server/queryParams.js';
import type { Reply } from '../server/reply.js';
import { LASTFM_ERROR, LASTFM_MESSAGE } from './lastfmErrorCodes.js';
import { albumInfo, artistInfo, chartArtist, chartTrack, oneOrList, playing, scrobble, searchedAlbum, searchedArtist, searchedTrack, similarArtist, type AlbumWithTracks } from './lastfmRecords.js';

/** Last.fm's search methods answer under `results`, with OpenSearch totals beside the matches and only `for` in `@attr`. */
const SEARCH_CONTAINER = 'results';

/**
 * Music as Last.fm answers it with format=json: the payload bare (no envelope), the key in
 * `?api_key=`, paging totals as strings in `@attr` (a search's in OpenSearch fields), errors as `{error, message}`.
 */
export const lastfmMusicWire: MusicWire = {
  apiKeyOf: (request) => request.url.searchParams.get('api_key') || undefined,
  readParams: lastfmParams,
  reply: lastfmReply,
  faultReplies: {
    outage: () => lastfmError(503, LASTFM_ERROR.serviceOffline, LASTFM_MESSAGE.serviceOffline),
    serverError: (status) => lastfmError(status, LASTFM_ERROR.serviceOffline, LASTFM_MESSAGE.serviceOffline),
    tooManyRequests: () => lastfmError(429, LASTFM_ERROR.rateLimitExceeded, LASTFM_MESSAGE.rateLimitExceeded),
    // Last.fm also reports these two inside an HTTP 200.
    errorEnvelope: (pick) =>
      pick < 0.5
        ? lastfmError(200, LASTFM_ERROR.rateLimitExceeded, LASTFM_MESSAGE.rateLimitExceeded)
        : lastfmError(200, LASTFM_ERROR.temporaryError, LASTFM_MESSAGE.temporaryError),
  },
};

/**
 * format=json is required (Last.fm would otherwise answer XML, which this simulator does not
 * speak). Last.fm names the subject after the method's package (`user=` for user.*, `artist=` for
 * artist.*, ...); the methods read it as q.
 */
function lastfmParams(method: string, params: URLSearchParams): ParamResult<URLSearchParams> {
  if ((params.get('format') ?? '').toLowerCase() !== 'json') {
    return { ok: false, error: { kind: 'invalid_param', param: 'format', message: 'this simulator only serves format=json' } };
  }
  const subject = params.get(method.slice(0, method.indexOf('.')));
  if (subject === null) return { ok: true, value: params };
  const renamed = new URLSearchParams(params);
  renamed.set('q', subject);
  return { ok: true, value: renamed };
}

function lastfmReply(answer: MusicAnswer, catalogue: MusicCatalogue): Reply {
  switch (answer.kind) {
    case 'record':
      return { status: 200, body: JSON.stringify({ [answer.key]: infoRecord(answer, catalogue) }) };
    case 'listing':
      return { status: 200, body: JSON.stringify(listingBody(answer, catalogue)) };
    case 'noRoute':
      return lastfmError(404, LASTFM_ERROR.invalidMethod, `No route ${answer.path}`);
    case 'methodNotAllowed':
      return lastfmError(405, LASTFM_ERROR.invalidMethod, 'Only GET is supported');
    case 'invalidKey':
      return lastfmError(403, LASTFM_ERROR.invalidApiKey, 'Invalid API key - You must be granted a valid key by last.fm');
    case 'suspendedKey':
      return lastfmError(403, LASTFM_ERROR.suspendedApiKey, LASTFM_MESSAGE.suspendedApiKey);
    case 'unknownMethod':
      return lastfmError(400, LASTFM_ERROR.invalidMethod, 'Invalid Method - No method with that name in this package');
    case 'invalidParams':
      return lastfmError(400, LASTFM_ERROR.invalidParameters, `Invalid parameters - ${answer.message}`);
    case 'notFound':
      return lastfmError(200, LASTFM_ERROR.invalidParameters, `The ${answer.what} you supplied could not be found`);
  }
}

function lastfmError(status: number, code: number, message: string): Reply {
  return { status, body: JSON.stringify({ error: code, message }) };
}

/** A getInfo's record as Last.fm writes it, for the methods the real bodies show; others as the catalogue has them. */
function infoRecord(answer: MusicRecord, catalogue: MusicCatalogue): unknown {
  if (answer.key === 'artist') return artistInfo(answer.record as ArtistRecord, catalogue);
  if (answer.key === 'album') return albumInfo(answer.record as AlbumWithTracks, catalogue);
  return answer.record;
}

/** How Last.fm writes the items of the listings the real bodies show (`rank`: the item's place in the whole listing, from 1); others as the catalogue has them. */
const LISTED: Partial<Record<MusicListMethod, (item: unknown, rank: number, catalogue: MusicCatalogue) => unknown>> = {
  'artist.search': (artist) => searchedArtist(artist as ArtistRecord),
  'album.search': (album) => searchedAlbum(album as AlbumRecord),
  'artist.getSimilar': (artist) => similarArtist(artist as SimilarArtistRecord),
  'tag.getTopArtists': (artist, rank) => chartArtist(artist as ArtistRecord, rank),
  'track.search': (track, _rank, catalogue) => searchedTrack(track as TrackRecord, catalogue),
  'tag.getTopTracks': (track, rank, catalogue) => chartTrack(track as TrackRecord, rank, catalogue),
  'user.getRecentTracks': (play, _rank, catalogue) => scrobble(play as PlayRecord, catalogue),
};

/** What `@attr` names first, beside the paging totals: the tag, artist or user a listing is of. */
const SUBJECT_ATTR: Partial<Record<MusicListMethod, string>> = { 'tag.getTopArtists': 'tag', 'tag.getTopTracks': 'tag', 'artist.getSimilar': 'artist', 'user.getRecentTracks': 'user' };

function listingBody(listing: MusicListing, catalogue: MusicCatalogue): Record<string, unknown> {
  const [container, ...inner] = listing.path;
  const write = LISTED[listing.method];
  const listed = write ? listing.items.map((item, n) => write(item, listing.slice.offset + n + 1, catalogue)) : listing.items;
  // The track playing now has no time yet, and is not counted in total.
  const playingNow = listing.newestPlay !== undefined && listing.slice.page === 1 ? [{ ...playing(listing.newestPlay, catalogue), '@attr': { nowplaying: 'true' } }] : [];
  const list = oneOrList([...playingNow, ...listed]);
  const nested = inner.reduceRight<unknown>((value, key) => ({ [key]: value }), list) as Record<string, unknown>;
  if (container === SEARCH_CONTAINER) return { [container]: { ...openSearch(listing.slice, listing.searchTerms ?? ''), ...nested, '@attr': { for: listing.searchTerms ?? '' } } };
  const subject = SUBJECT_ATTR[listing.method];
  return { [container]: { ...nested, '@attr': { ...(subject !== undefined && { [subject]: listing.of ?? '' }), ...pageAttributes(listing.slice) } } };
}

/** Last.fm sends every number in `@attr` as a string. */
function pageAttributes(slice: PageSlice): Record<string, string> {
  return { page: String(slice.page), perPage: String(slice.perPage), totalPages: String(slice.totalPages), total: String(slice.total) };
}

/** A search's query and totals, as Last.fm writes them (text, as every number it sends). */
function openSearch(slice: PageSlice, searchTerms: string): Record<string, unknown> {
  return {
    'opensearch:Query': { '#text': '', role: 'request', searchTerms, startPage: String(slice.page) },
    'opensearch:totalResults': String(slice.total),
    'opensearch:startIndex': String(slice.offset),
    'opensearch:itemsPerPage': String(slice.perPage),
  };
}
