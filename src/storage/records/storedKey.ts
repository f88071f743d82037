import { createHash } from 'node:crypto';

/**
 * Longest key, in UTF-8 bytes, stored as it is. A B-tree entry holds at most 2,704 bytes: records'
 * primary key holds only the key's digest (see keyDigest.ts), but `record_versions`' index holds the
 * key beside its source and kind, and `full_refresh_keys`' a scope too.
 */
export const LONGEST_STORED_KEY = 1024;

/** UTF-8 needs at most 3 bytes a UTF-16 code unit: a key this short is never too long. */
const SURELY_SHORT = Math.floor(LONGEST_STORED_KEY / 3);

/** Marks a key stored as its digest. */
export const KEY_DIGEST_PREFIX = 'sha256:';

/**
 * A record's key as `records.key` holds it: as it is, or when longer than LONGEST_STORED_KEY
 * bytes, `sha256:` and the hex sha256 of its UTF-8 (its parts stay in the payload). Every table
 * that holds keys holds this form, so a long key is upserted, compared and deleted like another.
 */
export function storedKey(key: string): string {
  if (key.length <= SURELY_SHORT || Buffer.byteLength(key) <= LONGEST_STORED_KEY) return key;
  return `${KEY_DIGEST_PREFIX}${createHash('sha256').update(key).digest('hex')}`;
}
