import type { PlayRecord } from '../music/UserHistories.js';
import type { MusicAnswer, MusicListing, MusicWire } from '../music/musicWire.js';
import type { PageSlice } from '../server/paging.js';
import type { ParamResult } from '../server/queryParams.js';
import type { Reply } from '../server/reply.js';
import { LASTFM_ERROR, LASTFM_MESSAGE } from './lastfmErrorCodes.js';

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

function lastfmReply(answer: MusicAnswer): Reply {
  switch (answer.kind) {
    case 'record':
      return { status: 200, body: JSON.stringify({ [answer.key]: answer.record }) };
    case 'listing':
      return { status: 200, body: JSON.stringify(listingBody(answer)) };
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

function listingBody(listing: MusicListing): Record<string, unknown> {
  const [container, ...inner] = listing.path;
  const plays = listing.newestPlay !== undefined;
  const listed = plays ? (listing.items as PlayRecord[]).map(scrobbled) : listing.items;
  const items = plays && listing.slice.page === 1 ? [nowPlaying(listing.newestPlay!), ...listed] : listed;
  // Last.fm's XML-to-JSON conversion turns a list of one into that one item.
  const list = items.length === 1 ? items[0] : items;
  const nested = inner.reduceRight<unknown>((value, key) => ({ [key]: value }), list) as Record<string, unknown>;
  if (container === SEARCH_CONTAINER) return { [container]: { ...openSearch(listing.slice, listing.searchTerms ?? ''), ...nested, '@attr': { for: listing.searchTerms ?? '' } } };
  return { [container]: { ...nested, '@attr': pageAttributes(listing.slice) } };
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

/** The track playing now has not been scrobbled yet, so it has no time (neither date nor uts). It is not counted in total. */
function nowPlaying(play: PlayRecord): Record<string, unknown> {
  const { date: _date, uts: _uts, ...untimed } = play;
  return { ...untimed, '@attr': { nowplaying: 'true' } };
}

/** A play as Last.fm lists a scrobble: its time as `date: {uts, #text}`, both text. */
function scrobbled(play: PlayRecord): Record<string, unknown> {
  const { date, uts, ...rest } = play;
  return { ...rest, date: { uts: String(uts), '#text': date } };
}
