import type { MusicCatalogue } from './MusicCatalogue.js';
import { domainOf, hashOf, unitOf } from '../server/prng.js';

/** Every user's newest play is within the day before this instant (2023-11-14T22:13:20Z). */
const NEWEST_PLAY_UTS = 1_700_000_000;
const FAVOURITE_ARTISTS = 5;
/** Share of plays drawn from the user's favourite artists; the rest from the whole catalogue. */
const FAVOURITE_SHARE = 0.7;

const DOMAIN = {
  count: domainOf('plays.count'),
  spacing: domainOf('plays.spacing'),
  newest: domainOf('plays.newest'),
  jitter: domainOf('plays.jitter'),
  track: domainOf('plays.track'),
  favourite: domainOf('plays.favourite'),
};

export interface PlayRecord {
  id: string;
  /** Unix seconds. */
  uts: number;
  /** ISO 8601 of uts. */
  date: string;
  /** The track's name. */
  name: string;
  trackId: string;
  /** The track's mbid. */
  mbid: string;
  artist: string;
  album: string;
}

/**
 * Listening histories. Play p of a user (0 = oldest) happens at
 * newest - (count - 1 - p) x spacing + jitter(p), jitter below half the spacing, so play times
 * strictly increase with p and a time range maps to an index range by binary search.
 */
export class UserHistories {
  constructor(
    private readonly seed: number,
    private readonly catalogue: MusicCatalogue,
  ) {}

  playCount(user: number): number {
    const average = this.catalogue.size.playsPerUser;
    return Math.max(1, Math.floor(average * (0.5 + unitOf(hashOf(this.seed, DOMAIN.count, user)))));
  }

  playUts(user: number, p: number): number {
    const spacing = this.spacingSeconds(user);
    const newest = NEWEST_PLAY_UTS - (hashOf(this.seed, DOMAIN.newest, user) % 86_400);
    const jitter = hashOf(this.seed, DOMAIN.jitter, user, p) % Math.floor(spacing / 2);
    return newest - (this.playCount(user) - 1 - p) * spacing + jitter;
  }

  play(user: number, p: number): PlayRecord {
    const uts = this.playUts(user, p);
    const track = this.catalogue.track(this.playedTrack(user, p));
    return {
      id: `pl-${String(user).padStart(4, '0')}-${String(p).padStart(7, '0')}`,
      uts,
      date: new Date(uts * 1000).toISOString(),
      name: track.name,
      trackId: track.id,
      mbid: track.mbid,
      artist: track.artist,
      album: track.album,
    };
  }

  /** How many of a user's plays were of album j's tracks (Last.fm's userplaycount). */
  albumPlays(user: number, j: number): number {
    const perAlbum = this.catalogue.size.tracksPerAlbum;
    const count = this.playCount(user);
    let plays = 0;
    for (let p = 0; p < count; p++) if (Math.floor(this.playedTrack(user, p) / perAlbum) === j) plays++;
    return plays;
  }

  /** Play indices [first, end) with fromUts <= uts <= toUts. */
  playsBetween(user: number, fromUts: number, toUts: number): { first: number; end: number } {
    const count = this.playCount(user);
    const first = this.firstPlayAtOrAfter(user, fromUts, count);
    const end = this.firstPlayAtOrAfter(user, toUts + 1, count);
    return { first, end: Math.max(first, end) };
  }

  private firstPlayAtOrAfter(user: number, uts: number, count: number): number {
    let low = 0;
    let high = count;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.playUts(user, middle) < uts) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** 2 to 12 minutes between plays, per user. */
  private spacingSeconds(user: number): number {
    return 120 + (hashOf(this.seed, DOMAIN.spacing, user) % 600);
  }

  private playedTrack(user: number, p: number): number {
    const draw = hashOf(this.seed, DOMAIN.track, user, p);
    if (unitOf(draw) < FAVOURITE_SHARE) {
      const favourite = hashOf(this.seed, DOMAIN.favourite, user, draw % FAVOURITE_ARTISTS) % this.catalogue.counts.artists;
      const { first, count } = this.catalogue.tracksOfArtist(favourite);
      return first + ((draw >>> 3) % count);
    }
    return (draw >>> 3) % this.catalogue.counts.tracks;
  }
}
