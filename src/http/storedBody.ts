import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import type { FetchedPage } from './SourceClient.js';

/**
 * A page's body as stored, with its size and sha256. The bytes received are kept when they are
 * what the text would encode to (valid UTF-8, no secret scrubbed out): encoding 1 MB of text
 * again for the hash and for Postgres costs more than checking that.
 */
export function storedBody(bytes: Buffer, text: string, scrubbed: string): Pick<FetchedPage, 'raw' | 'bytes' | 'contentHash'> {
  const raw = scrubbed === text && isUtf8(bytes) ? bytes : scrubbed;
  return { raw, bytes: typeof raw === 'string' ? Buffer.byteLength(raw) : raw.length, contentHash: createHash('sha256').update(raw).digest('hex') };
}
