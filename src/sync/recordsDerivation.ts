import { createHash } from 'node:crypto';
import type { ResolvedQuery } from '../config/jobs/resolveQuery.js';

/** Raised when the code that turns a body into records changes what it makes of the same body: older proofs then no longer hold. */
const DERIVATION_VERSION = 1;

/**
 * A fingerprint of everything that turns a page's body into the records stored: how the body is
 * read (the source's response preset), which items are records and their keys and kind, and the
 * query's subject (a `$query` key part). The same body under the same fingerprint gives the same
 * records, so a proof kept with an envelope (see storeProvenPage) holds only under it. Null for a
 * full_refresh query, whose pages note their keys and so always need their records.
 */
export function recordsDerivation(query: ResolvedQuery): string | null {
  if (query.mode === 'full_refresh') return null;
  const inputs = [DERIVATION_VERSION, query.sourceName, query.source.response, query.records, query.subject ?? null];
  return createHash('sha256').update(JSON.stringify(inputs)).digest('hex').slice(0, 16);
}

/**
 * A page's own derivation: a window that slid leaves out the keys the page before already stored,
 * so the page's records are its body's less those; the same body and keys give the same records.
 */
export function pageDerivation(derivation: string | null, skipKeys: readonly string[] | undefined): string | null {
  if (derivation === null || !skipKeys?.length) return derivation;
  return createHash('sha256').update(JSON.stringify([derivation, skipKeys])).digest('hex').slice(0, 16);
}
