import { readFileSync } from 'node:fs';

/**
 * feedsync's version, from package.json, read once at load. The path is the same from src/http
 * (tests, tsx) and dist/http (the package and the image, which both ship package.json).
 */
export const FEEDSYNC_VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** The User-Agent every upstream request sends: upstreams (Last.fm) ask clients to identify themselves. */
export function userAgentOf(contact: string | undefined): string {
  return contact === undefined ? `feedsync/${FEEDSYNC_VERSION}` : `feedsync/${FEEDSYNC_VERSION} (+${contact})`;
}
