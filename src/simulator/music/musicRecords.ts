// The music catalogue's records, as the simulator's endpoint serves them.

/** What every artist, album and track of the catalogue has. */
interface CatalogueItem {
  id: string;
  name: string;
  mbid: string;
  url: string;
  listeners: number;
  playcount: number;
  tags: string[];
}

export type ArtistRecord = CatalogueItem;

export interface SimilarArtistRecord extends ArtistRecord {
  /** Similarity in (0, 1]; the list is ordered by it, highest first. */
  match: number;
}

/** An album or track: a catalogue item by one artist. */
interface ArtistWork extends CatalogueItem {
  artist: string;
  artistId: string;
}

export interface AlbumRecord extends ArtistWork {
  releaseDate: string;
  trackCount: number;
}

export interface TrackRecord extends ArtistWork {
  album: string;
  albumId: string;
  trackNumber: number;
  /** Seconds. */
  duration: number;
}

export interface LyricsRecord {
  trackId: string;
  track: string;
  artist: string;
  text: string;
  language: string;
}
