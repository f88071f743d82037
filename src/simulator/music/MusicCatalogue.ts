import { uuidFromWords } from '../server/hex.js';
import { albumNames, artistNames, tagName, trackNames, userName, type NameFamily } from './musicNames.js';
import { LYRIC_LANGUAGES, LYRIC_WORDS } from './musicWords.js';
import { NameDirectory } from './NameDirectory.js';
import { artistUrl, urlPart } from './musicUrls.js';
import type { AlbumRecord, ArtistRecord, LyricsRecord, SimilarArtistRecord, TrackRecord } from './musicRecords.js';
import { Prng, domainOf, hashOf, unitOf } from '../server/prng.js';

/** How big the catalogue is. Albums = artists x albumsPerArtist; tracks = albums x tracksPerAlbum. */
export interface CatalogueSize {
  artists: number;
  albumsPerArtist: number;
  tracksPerAlbum: number;
  tags: number;
  users: number;
  /** Average plays per user; each user has between half and one and a half times this. */
  playsPerUser: number;
}

/** 10,000 artists, 20,000 albums, 100,000 tracks, 50 tags, 1,000 users with ~3,000 plays each. */
export const DEFAULT_CATALOGUE_SIZE: Readonly<CatalogueSize> = {
  artists: 10_000,
  albumsPerArtist: 2,
  tracksPerAlbum: 5,
  tags: 50,
  users: 1000,
  playsPerUser: 3000,
};

export const SIMILAR_ARTISTS_PER_ARTIST = 50;
export const RECOMMENDATIONS_PER_USER = 100;

const DOMAIN = {
  artistMbid: domainOf('music.artist.mbid'),
  albumMbid: domainOf('music.album.mbid'),
  trackMbid: domainOf('music.track.mbid'),
  artistListeners: domainOf('music.artist.listeners'),
  albumListeners: domainOf('music.album.listeners'),
  trackListeners: domainOf('music.track.listeners'),
  primaryTag: domainOf('music.tag.primary'),
  secondaryTag: domainOf('music.tag.secondary'),
  similar: domainOf('music.similar'),
  recommendation: domainOf('music.recommendation'),
  lyrics: domainOf('music.lyrics'),
  release: domainOf('music.release'),
};

const ID_PATTERN = /^(ar|al|tr|us)-(\d+)$/i;

/**
 * The deterministic music catalogue. Every record is computed from (seed, index) when asked for;
 * only name lists (for search) and per-tag rankings are cached, and only once first needed.
 * Album j belongs to artist floor(j / albumsPerArtist); track t to album floor(t / tracksPerAlbum).
 */
export class MusicCatalogue {
  readonly counts: { artists: number; albums: number; tracks: number; tags: number; users: number };
  readonly artistDirectory: NameDirectory;
  readonly albumDirectory: NameDirectory;
  readonly trackDirectory: NameDirectory;
  private readonly artistNames: NameFamily;
  private readonly albumNames: NameFamily;
  private readonly trackNames: NameFamily;
  private primaryTags: Uint16Array | undefined;
  private readonly topArtistsByTag = new Map<number, readonly number[]>();
  private readonly topTracksByTag = new Map<number, readonly number[]>();

  constructor(
    private readonly seed: number,
    readonly size: Readonly<CatalogueSize>,
  ) {
    const albums = size.artists * size.albumsPerArtist;
    this.counts = { artists: size.artists, albums, tracks: albums * size.tracksPerAlbum, tags: size.tags, users: size.users };
    this.artistNames = artistNames(seed);
    this.albumNames = albumNames(seed);
    this.trackNames = trackNames(seed);
    this.artistDirectory = new NameDirectory(this.counts.artists, (i) => this.artistNames.name(i));
    this.albumDirectory = new NameDirectory(this.counts.albums, (i) => this.albumNames.name(i));
    this.trackDirectory = new NameDirectory(this.counts.tracks, (i) => this.trackNames.name(i));
  }

  artist(a: number): ArtistRecord {
    const name = this.artistNames.name(a);
    const listeners = this.artistListeners(a);
    return {
      id: `ar-${pad(a, 6)}`,
      name,
      mbid: this.mbid(DOMAIN.artistMbid, a),
      url: artistUrl(name),
      listeners,
      playcount: listeners * (3 + (hashOf(this.seed, DOMAIN.artistListeners, a, 1) % 50)),
      tags: this.artistTags(a).map(tagName),
    };
  }

  album(j: number): AlbumRecord {
    const a = this.artistOfAlbum(j);
    const artist = this.artistNames.name(a);
    const name = this.albumNames.name(j);
    const listeners = this.albumListeners(j);
    const release = hashOf(this.seed, DOMAIN.release, j);
    return {
      id: `al-${pad(j, 7)}`,
      name,
      mbid: this.mbid(DOMAIN.albumMbid, j),
      url: `${artistUrl(artist)}/${urlPart(name)}`,
      artist,
      artistId: `ar-${pad(a, 6)}`,
      releaseDate: `${1960 + (release % 64)}-${pad(1 + ((release >>> 8) % 12), 2)}-${pad(1 + ((release >>> 16) % 28), 2)}`,
      listeners,
      playcount: listeners * (2 + (hashOf(this.seed, DOMAIN.albumListeners, j, 1) % 25)),
      tags: this.artistTags(a).map(tagName),
      trackCount: this.size.tracksPerAlbum,
    };
  }

  track(t: number): TrackRecord {
    const j = Math.floor(t / this.size.tracksPerAlbum);
    const a = this.artistOfAlbum(j);
    const artist = this.artistNames.name(a);
    const name = this.trackNames.name(t);
    const draw = hashOf(this.seed, DOMAIN.trackListeners, t);
    const listeners = Math.floor(this.albumListeners(j) * (0.3 + 0.7 * unitOf(draw)));
    return {
      id: `tr-${pad(t, 7)}`,
      name,
      mbid: this.mbid(DOMAIN.trackMbid, t),
      url: `${artistUrl(artist)}/_/${urlPart(name)}`,
      artist,
      artistId: `ar-${pad(a, 6)}`,
      album: this.albumNames.name(j),
      albumId: `al-${pad(j, 7)}`,
      trackNumber: (t % this.size.tracksPerAlbum) + 1,
      duration: 95 + (draw % 300),
      listeners,
      playcount: listeners * (1 + ((draw >>> 9) % 15)),
      tags: this.artistTags(a).map(tagName),
    };
  }

  tracksOfAlbum(j: number): number[] {
    const first = j * this.size.tracksPerAlbum;
    return Array.from({ length: this.size.tracksPerAlbum }, (_, n) => first + n);
  }

  /** All tracks of an artist, album by album. */
  tracksOfArtist(a: number): { first: number; count: number } {
    const count = this.size.albumsPerArtist * this.size.tracksPerAlbum;
    return { first: a * count, count };
  }

  /** Up to 50 other artists, most similar first. */
  similarArtists(a: number): SimilarArtistRecord[] {
    const seen = new Set<number>([a]);
    const similar: SimilarArtistRecord[] = [];
    for (let j = 0; j < SIMILAR_ARTISTS_PER_ARTIST && seen.size < this.counts.artists; j++) {
      const b = hashOf(this.seed, DOMAIN.similar, a, j) % this.counts.artists;
      if (seen.has(b)) continue;
      seen.add(b);
      similar.push({ ...this.artist(b), match: Math.round(1000 * (0.98 - j * 0.019)) / 1000 });
    }
    return similar;
  }

  /** Artists whose first tag is this tag, most listened first. */
  tagTopArtists(tag: number): readonly number[] {
    let ranked = this.topArtistsByTag.get(tag);
    if (ranked === undefined) {
      const primaryTags = this.primaryTagOfEveryArtist();
      const artists: number[] = [];
      for (let a = 0; a < primaryTags.length; a++) if (primaryTags[a] === tag) artists.push(a);
      ranked = rankBy(artists, (a) => this.artistListeners(a));
      this.topArtistsByTag.set(tag, ranked);
    }
    return ranked;
  }

  /** Tracks of the tag's artists, most played first. */
  tagTopTracks(tag: number): readonly number[] {
    let ranked = this.topTracksByTag.get(tag);
    if (ranked === undefined) {
      const tracks = this.tagTopArtists(tag).flatMap((a) => {
        const { first, count } = this.tracksOfArtist(a);
        return Array.from({ length: count }, (_, n) => first + n);
      });
      ranked = rankBy(tracks, (t) => this.track(t).playcount);
      this.topTracksByTag.set(tag, ranked);
    }
    return ranked;
  }

  recommendedTrack(user: number, rank: number): number {
    return hashOf(this.seed, DOMAIN.recommendation, user, rank) % this.counts.tracks;
  }

  lyrics(t: number): LyricsRecord {
    const track = this.track(t);
    const draw = new Prng(hashOf(this.seed, DOMAIN.lyrics, t));
    const line = (words: number): string =>
      Array.from({ length: words }, () => LYRIC_WORDS[draw.nextUint32() % LYRIC_WORDS.length]!).join(' ');
    const text = [line(6), `${track.name.toLowerCase()}, ${line(4)}`, line(7), line(5)].join('\n');
    return {
      trackId: track.id,
      track: track.name,
      artist: track.artist,
      text,
      language: LYRIC_LANGUAGES[draw.nextUint32() % LYRIC_LANGUAGES.length]!,
    };
  }

  tagName(tag: number): string {
    return tagName(tag);
  }

  userName(user: number): string {
    return userName(this.seed, user);
  }

  /** An artist by id ("ar-000123") or by name (case-insensitive). */
  findArtist(query: string): number | undefined {
    return this.findById(query, 'ar', this.counts.artists) ?? this.artistDirectory.find(query);
  }

  findAlbum(query: string): number | undefined {
    return this.findById(query, 'al', this.counts.albums) ?? this.albumDirectory.find(query);
  }

  findTrack(query: string): number | undefined {
    return this.findById(query, 'tr', this.counts.tracks) ?? this.trackDirectory.find(query);
  }

  findTag(query: string): number | undefined {
    const lower = query.toLowerCase();
    for (let tag = 0; tag < this.counts.tags; tag++) if (tagName(tag) === lower) return tag;
    return undefined;
  }

  /** A user by id ("us-0042") or name; names end in the user's index. */
  findUser(query: string): number | undefined {
    const byId = this.findById(query, 'us', this.counts.users);
    if (byId !== undefined) return byId;
    const digits = /(\d+)$/.exec(query);
    const user = digits === null ? Number.NaN : Number(digits[1]);
    return user < this.counts.users && this.userName(user) === query.toLowerCase() ? user : undefined;
  }

  private findById(query: string, prefix: string, count: number): number | undefined {
    const match = ID_PATTERN.exec(query);
    if (match === null || match[1]!.toLowerCase() !== prefix) return undefined;
    const index = Number(match[2]);
    return index < count ? index : undefined;
  }

  private artistOfAlbum(j: number): number {
    return Math.floor(j / this.size.albumsPerArtist);
  }

  /** Skewed so a few artists are huge and most are small, as on a real service. */
  private artistListeners(a: number): number {
    return 20 + Math.floor(2_500_000 * unitOf(hashOf(this.seed, DOMAIN.artistListeners, a)) ** 3);
  }

  private albumListeners(j: number): number {
    const share = 0.1 + 0.7 * unitOf(hashOf(this.seed, DOMAIN.albumListeners, j));
    return Math.floor(this.artistListeners(this.artistOfAlbum(j)) * share);
  }

  /** One or two tag indices; the first decides which tag charts the artist is in. */
  private artistTags(a: number): number[] {
    const tags = this.counts.tags;
    if (tags === 0) return [];
    const primary = hashOf(this.seed, DOMAIN.primaryTag, a) % tags;
    if (tags === 1) return [primary];
    return [primary, (primary + 1 + (hashOf(this.seed, DOMAIN.secondaryTag, a) % (tags - 1))) % tags];
  }

  private primaryTagOfEveryArtist(): Uint16Array {
    this.primaryTags ??= Uint16Array.from({ length: this.counts.artists }, (_, a) => this.artistTags(a)[0] ?? 0);
    return this.primaryTags;
  }

  private mbid(domain: number, index: number): string {
    const draw = new Prng(hashOf(this.seed, domain, index));
    return uuidFromWords(draw.nextUint32(), draw.nextUint32(), draw.nextUint32(), draw.nextUint32());
  }
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** Highest score first; ties by index, so the order is stable. */
function rankBy(indices: number[], score: (index: number) => number): number[] {
  const scored = indices.map((index) => ({ index, score: score(index) }));
  scored.sort((x, y) => y.score - x.score || x.index - y.index);
  return scored.map(({ index }) => index);
}
