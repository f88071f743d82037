const LASTFM_MUSIC_URL = 'https://www.last.fm/music/';

/** Last.fm URL path segments use `+` for spaces. */
export function urlPart(name: string): string {
  return encodeURIComponent(name).replace(/%20/g, '+');
}

export function artistUrl(artist: string): string {
  return LASTFM_MUSIC_URL + urlPart(artist);
}
