import type { MusicCatalogue } from '../music/MusicCatalogue.js';
import type { AlbumRecord, ArtistRecord, SimilarArtistRecord, TrackRecord } from '../music/musicRecords.js';
import { artistUrl, urlPart } from '../music/musicUrls.js';
import type { PlayRecord } from '../music/UserHistories.js';

/*
 * The catalogue's records as Last.fm writes them with format=json, field for field as the real
 * bodies in test/fixtures/real-bodies have them: every number as text (but a track's duration
 * and rank in album.getInfo, and userplaycount), images as lists of {#text, size}, an artist or
 * album inside a track as an object. test/simulator/dialects/realBodyShapes.integration.test.ts
 * holds them to those bodies.
 */

const IMAGE_BASE = 'https://lastfm.freetls.fastly.net/i/u/';
/** Last.fm's sizes, and the part of the image URL each takes; a getInfo lists `mega` and '' too. */
const SIZES: readonly (readonly [size: string, path: string])[] = [
  ['small', '34s'],
  ['medium', '64s'],
  ['large', '174s'],
  ['extralarge', '300x300'],
];
const INFO_SIZES = [...SIZES, ['mega', '300x300'], ['', '300x300']] as const;
/** The grey star Last.fm shows for every artist since it stopped serving artist images. */
const ARTIST_PLACEHOLDER = '2a96cbd8b46e442fc41c2b86b821562f';
const NOT_STREAMABLE = '0';
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** Where every wiki and bio was published: the simulator's catalogue has no history of its own. */
const PUBLISHED_UTS = 1_262_304_000;

type Image = { '#text': string; size: string };

function images(hash: string, sizes: readonly (readonly [string, string])[]): Image[] {
  return sizes.map(([size, path]) => ({ '#text': `${IMAGE_BASE}${path}/${hash}.png`, size }));
}

const artistImages = (): Image[] => images(ARTIST_PLACEHOLDER, INFO_SIZES);
/** An album's cover, named by its mbid. */
const coverImages = (mbid: string, sizes = SIZES): Image[] => images(mbid.replaceAll('-', ''), sizes);

/** "07 Mar 2017, 17:39", as Last.fm writes a time beside its unix seconds. */
export function lastfmDate(uts: number): string {
  const date = new Date(uts * 1000);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(date.getUTCDate())} ${MONTHS[date.getUTCMonth()]!} ${date.getUTCFullYear()}, ${two(date.getUTCHours())}:${two(date.getUTCMinutes())}`;
}

const tagList = (tags: readonly string[]) => ({ tag: tags.map((name) => ({ name, url: `https://www.last.fm/tag/${urlPart(name)}` })) });

/** A wiki or bio: a summary ending in a link to the page, and its content. */
function wiki(name: string, url: string, about: string) {
  const summary = `${name} is ${about}. <a href="${url}/+wiki">Read more on Last.fm</a>`;
  return { published: lastfmDate(PUBLISHED_UTS), summary, content: `${summary} User-contributed text is available under the Creative Commons By-SA License; additional terms may apply.` };
}

/** Last.fm's XML-to-JSON conversion turns a list of one into that one item. */
export const oneOrList = (items: unknown[]): unknown => (items.length === 1 ? items[0] : items);

/** An artist in artist.search: listeners as text. */
export const searchedArtist = (artist: ArtistRecord) => ({ name: artist.name, listeners: String(artist.listeners), mbid: artist.mbid, url: artist.url, streamable: NOT_STREAMABLE, image: artistImages() });

/** An artist in a chart (tag.getTopArtists): its rank in the whole chart, from 1, as text. */
export const chartArtist = (artist: ArtistRecord, rank: number) => ({ name: artist.name, mbid: artist.mbid, url: artist.url, streamable: NOT_STREAMABLE, image: artistImages(), '@attr': { rank: String(rank) } });

/** An artist in artist.getSimilar: match as text. */
export const similarArtist = (artist: SimilarArtistRecord) => ({ name: artist.name, mbid: artist.mbid, match: String(artist.match), url: artist.url, image: artistImages(), streamable: NOT_STREAMABLE });

/** An album in album.search: its artist by name. */
export const searchedAlbum = (album: AlbumRecord) => ({ name: album.name, artist: album.artist, url: album.url, image: coverImages(album.mbid), streamable: NOT_STREAMABLE, mbid: album.mbid });

/** A track in track.search: its artist by name, listeners as text, and `streamable` as Last.fm sends it there ("FIXME"). */
export const searchedTrack = (track: TrackRecord, catalogue: MusicCatalogue) => ({
  name: track.name,
  artist: track.artist,
  url: track.url,
  streamable: 'FIXME',
  listeners: String(track.listeners),
  image: coverImages(albumMbidOf(track, catalogue)),
  mbid: track.mbid,
});

/** A track in a chart (tag.getTopTracks): duration as text, its artist as an object, its rank in the whole chart. */
export const chartTrack = (track: TrackRecord, rank: number, catalogue: MusicCatalogue) => ({
  name: track.name,
  duration: String(track.duration),
  mbid: track.mbid,
  url: track.url,
  streamable: { '#text': '0', fulltrack: '0' },
  artist: { name: track.artist, mbid: catalogue.artist(catalogue.findArtist(track.artistId)!).mbid, url: artistUrl(track.artist) },
  image: coverImages(albumMbidOf(track, catalogue)),
  '@attr': { rank: String(rank) },
});

const albumMbidOf = (track: TrackRecord, catalogue: MusicCatalogue): string => catalogue.album(catalogue.findAlbum(track.albumId)!).mbid;

/** artist.getInfo's artist: its stats, five similar artists, tags and bio. */
export function artistInfo(artist: ArtistRecord, catalogue: MusicCatalogue) {
  const similar = catalogue.similarArtists(catalogue.findArtist(artist.id)!).slice(0, 5);
  return {
    name: artist.name,
    mbid: artist.mbid,
    url: artist.url,
    image: artistImages(),
    streamable: NOT_STREAMABLE,
    ontour: '0',
    stats: { listeners: String(artist.listeners), playcount: String(artist.playcount) },
    similar: { artist: similar.map((other) => ({ name: other.name, url: other.url, image: artistImages() })) },
    tags: tagList(artist.tags),
    bio: { links: { link: { '#text': '', rel: 'original', href: `${artist.url}/+wiki` } }, ...wiki(artist.name, artist.url, `an artist tagged ${artist.tags.join(' and ')}`) },
  };
}

/** What album.getInfo reads: the album, its tracks and, when a user was named, their plays of it. */
export type AlbumWithTracks = AlbumRecord & { tracks: { track: TrackRecord[] }; userplaycount?: number };

/** album.getInfo's album: its tracks with duration and rank as numbers, a track of a one-track album as an object. */
export function albumInfo(album: AlbumWithTracks, catalogue: MusicCatalogue) {
  const artist = { url: artistUrl(album.artist), name: album.artist, mbid: catalogue.artist(catalogue.findArtist(album.artistId)!).mbid };
  const tracks = album.tracks.track.map((track, n) => ({
    streamable: { fulltrack: '0', '#text': '0' },
    duration: track.duration,
    url: track.url,
    name: track.name,
    '@attr': { rank: n + 1 },
    artist,
  }));
  return {
    artist: album.artist,
    mbid: album.mbid,
    tags: tagList(album.tags),
    name: album.name,
    image: coverImages(album.mbid, INFO_SIZES),
    tracks: { track: oneOrList(tracks) },
    url: album.url,
    listeners: String(album.listeners),
    playcount: String(album.playcount),
    ...(album.userplaycount !== undefined && { userplaycount: album.userplaycount }),
    wiki: wiki(album.name, album.url, `an album by ${album.artist}`),
  };
}

/** A play in user.getRecentTracks, without its time: the track playing now. */
export function playing(play: PlayRecord, catalogue: MusicCatalogue) {
  const track = catalogue.track(catalogue.findTrack(play.trackId)!);
  const artistMbid = catalogue.artist(catalogue.findArtist(track.artistId)!).mbid;
  const albumMbid = catalogue.album(catalogue.findAlbum(track.albumId)!).mbid;
  return {
    artist: { mbid: artistMbid, '#text': play.artist },
    streamable: NOT_STREAMABLE,
    image: coverImages(albumMbid),
    mbid: play.mbid,
    album: { mbid: albumMbid, '#text': play.album },
    name: play.name,
    url: track.url,
  };
}

/** A scrobble in user.getRecentTracks: a play with its time as `date: {uts, #text}`, both text. */
export const scrobble = (play: PlayRecord, catalogue: MusicCatalogue) => ({ ...playing(play, catalogue), date: { uts: String(play.uts), '#text': lastfmDate(play.uts) } });
