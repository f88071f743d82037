import { NamedStatement } from '../../database/NamedStatement.js';

/** n and bytes: bigints, as text. */
export interface EnvelopeCountRow {
  n: string;
  bytes: string;
}

/** How many envelopes are stored, and their bodies' bytes summed (a body shared by several counts each time). */
export const countEnvelopes = new NamedStatement<Record<string, never>>('feedsync_count_envelopes_v1', 'select count(*) as n, coalesce(sum(bytes), 0) as bytes from envelopes');
