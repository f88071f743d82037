import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseJson } from '../../src/config/records/exactJson.js';

/** Real Last.fm and Etherscan response bodies recorded by other projects (issue 43); see its README. */
export const REAL_BODIES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../fixtures/real-bodies');

/** One recorded body's provenance, as test/fixtures/real-bodies/manifest.json lists it. */
export interface RealBody {
  /** Under the corpus folder: `lastfm/artist-search.json`. */
  file: string;
  service: 'lastfm' | 'etherscan';
  /** Last.fm's `method` (`user.getRecentTracks`), Etherscan's `module.action` (`account.txlist`). */
  method: string;
  kind: 'success' | 'error' | 'empty';
  /** The HTTP status the source recorded it with, when it did. */
  httpStatus?: number;
  repository: string;
  commit: string;
  path: string;
  licence: string;
  recordedAt?: string;
  notes: string;
  bytes: number;
  sha256: string;
}

export const realBodies: readonly RealBody[] = JSON.parse(readFileSync(join(REAL_BODIES_DIR, 'manifest.json'), 'utf8')) as RealBody[];

/** The manifest's entry for `file`; throws for a file it does not list. */
export function realBody(file: string): RealBody {
  const entry = realBodies.find((body) => body.file === file);
  if (entry === undefined) throw new Error(`${file} is not in the real-bodies manifest`);
  return entry;
}

/** The bytes of a recorded body, as its source holds them. */
export function recordedBytes(file: string): Buffer {
  return readFileSync(join(REAL_BODIES_DIR, realBody(file).file));
}

/** A recorded body parsed as feedsync parses a page: every number kept exactly. */
export function recordedJson(file: string): unknown {
  return parseJson(recordedBytes(file).toString('utf8'));
}
