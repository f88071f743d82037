import type { MusicCatalogue } from './MusicCatalogue.js';
import type { MUSIC_ITEM_PATHS } from './musicEndpoint.js';
import type { PlayRecord } from './UserHistories.js';
import type { PageSlice } from '../server/paging.js';
import type { ParamResult } from '../server/queryParams.js';
import type { FaultReplies, Reply, SimRequest } from '../server/reply.js';

/** One record on its own (artist.getInfo, track.getLyrics, ...), under `key`. */
export interface MusicRecord {
  kind: 'record';
  key: string;
  record: unknown;
}

/** The paged methods. */
export type MusicListMethod = keyof typeof MUSIC_ITEM_PATHS;

/** One page of a paged method. */
export interface MusicListing {
  kind: 'listing';
  method: MusicListMethod;
  /** The name of the user, tag or artist the listing is of; absent for a search. */
  of?: string;
  /** Where the items sit, Last.fm style: ['recenttracks', 'track'], ['results', 'artistmatches', 'artist']. */
  path: readonly [string, string, ...string[]];
  slice: PageSlice;
  items: unknown[];
  /** The search methods only: what was searched for. */
  searchTerms?: string;
  /** user.getRecentTracks only: the user's newest play, which Last.fm also shows as the track playing now. */
  newestPlay?: PlayRecord;
}

/** Why the music endpoint refused a request, in no wire's terms yet. */
export type MusicFailure =
  | { kind: 'noRoute'; path: string }
  | { kind: 'methodNotAllowed' }
  | { kind: 'invalidKey' }
  | { kind: 'suspendedKey' }
  | { kind: 'unknownMethod'; name: string }
  | { kind: 'invalidParams'; message: string }
  /** A name (q) that matches nothing; `what` is the kind of thing looked for: artist, track, user... */
  | { kind: 'notFound'; what: string };

/** What the music endpoint has to say to one request; a MusicWire turns it into bytes. */
export type MusicAnswer = MusicRecord | MusicListing | MusicFailure;

/** How one dialect carries the music endpoint's requests and answers. */
export interface MusicWire {
  /** The API key where this dialect carries it; undefined when absent. */
  apiKeyOf(request: SimRequest): string | undefined;
  /**
   * The query under the names the methods read (q, page, limit, from, to), given the method's
   * lower-cased name; an invalid_param for a request this dialect will not answer.
   */
  readParams(method: string, params: URLSearchParams): ParamResult<URLSearchParams>;
  /** The answer as this dialect sends it; `catalogue` for what it sends beside the records (Last.fm's similar artists in artist.getInfo). */
  reply(answer: MusicAnswer, catalogue: MusicCatalogue): Reply;
  faultReplies: FaultReplies;
}
