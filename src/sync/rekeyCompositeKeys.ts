import type pg from 'pg';
import { getPath } from '../config/records/dotPath.js';
import { parseJson, scalarText } from '../config/records/exactJson.js';
import { keysOfKinds } from '../config/records/kindKeys.js';
import type { Config } from '../config/schema.js';
import type { Logger } from '../observability/logger.js';
import { joinKeyParts, mayNeedRekey } from '../paging/compositeKey.js';
import { endCompositeKeyRekey } from '../storage/records/statements/endCompositeKeyRekey.js';
import { listCompositeKeyRekeys } from '../storage/records/statements/listCompositeKeyRekeys.js';
import { readKeysToRekey, type KeyToRekeyRow } from '../storage/records/statements/readKeysToRekey.js';
import { KEY_DIGEST_PREFIX, storedKey } from '../storage/records/storedKey.js';
import { rekeyRecords } from '../storage/records/statements/rekeyRecords.js';
import { takeChangeTicket } from '../storage/records/statements/takeChangeTicket.js';
import { inTransaction } from '../storage/database/transaction.js';

/** Keys read and rewritten a transaction at a time. */
const BATCH = 5_000;

/** What one (source, kind) pair's rekey did. */
export interface KindRekey {
  source: string;
  kind: string;
  /** Records moved to their escaped key (a deletion left at the old one). */
  moved: number;
  /** Records whose escaped key a later run had stored already: marked deleted at the old key. */
  superseded: number;
  /** Old keys their payload does not give back (a field gone, a number written otherwise): left as they are. */
  unmatched: string[];
}

/**
 * Brings the keys that rows stored before composite keys escaped their parts into the escaped
 * form, for every (source, kind) migration 0017 listed that this config writes with a composite
 * key: each key is worked out again from its record's payload by the config's key (a `$query`
 * part from what the old key leaves), and moved only when its parts joined plainly give the old key
 * back (its digest, for a long key; see storedKey). Deleted records stay at their old keys. A pair the config writes with a one-part key needs nothing; a pair it does not write
 * waits for a config that does.
 */
export async function rekeyCompositeKeys(pool: pg.Pool, config: Config, logger: Logger): Promise<KindRekey[]> {
  const { rows: pending } = await pool.query<{ source: string; kind: string }>(listCompositeKeyRekeys.with({}));
  if (pending.length === 0) return [];
  const keysOf = new Map(keysOfKinds(config.jobs).map((kind) => [`${kind.source}\u0000${kind.kind}`, kind.keys] as const));
  const done: KindRekey[] = [];
  for (const { source, kind } of pending) {
    const specs = keysOf.get(`${source}\u0000${kind}`);
    if (specs === undefined) continue;
    const composite = [...specs.keys()].map((spec) => JSON.parse(spec) as string[]).filter((parts) => parts.length > 1);
    if (composite.length > 1) {
      logger.warn({ source, kind, keys: composite }, 'records of this kind are written with different composite keys: their stored keys were not rekeyed');
      continue;
    }
    const rekey = composite.length === 0 ? { source, kind, moved: 0, superseded: 0, unmatched: [] } : await rekeyKind(pool, source, kind, composite[0]!);
    await pool.query(endCompositeKeyRekey.with({ source, kind }));
    if (rekey.moved + rekey.superseded + rekey.unmatched.length > 0) logger.warn({ ...rekey, unmatched: rekey.unmatched.slice(0, 20) }, 'composite keys stored before their parts were escaped: rekeyed');
    done.push(rekey);
  }
  return done;
}

async function rekeyKind(pool: pg.Pool, source: string, kind: string, parts: readonly string[]): Promise<KindRekey> {
  const rekey: KindRekey = { source, kind, moved: 0, superseded: 0, unmatched: [] };
  for (let after = ''; ; ) {
    const { rows } = await pool.query<KeyToRekeyRow>(readKeysToRekey.with({ source, kind, after, limit: BATCH }));
    if (rows.length === 0) return rekey;
    after = rows.at(-1)!.key;
    const oldKeys: string[] = [];
    const newKeys: string[] = [];
    for (const row of rows) {
      const digest = row.key.startsWith(KEY_DIGEST_PREFIX);
      // A digest with a $query part cannot be checked (the old key that gave the query's value is gone): it stays.
      if (digest ? parts.includes('$query') : !mayNeedRekey(row.key, parts.length)) continue;
      const key = escapedKey(row, parts);
      if (key === undefined) rekey.unmatched.push(row.key);
      else if (key !== row.key) {
        oldKeys.push(row.key);
        newKeys.push(key);
      }
    }
    if (oldKeys.length === 0) continue;
    const moved = await inTransaction(pool, async (client) => {
      await client.query(takeChangeTicket.with({}));
      return (await client.query<{ moved: boolean }>(rekeyRecords.with({ source, kind, oldKeys, newKeys }))).rows;
    });
    const movedCount = moved.filter((row) => row.moved).length;
    rekey.moved += movedCount;
    rekey.superseded += moved.length - movedCount;
  }
}

/** The key a stored record has now, from its payload; undefined when that does not give its old key back. */
function escapedKey(row: KeyToRekeyRow, parts: readonly string[]): string | undefined {
  const payload = parseJson(row.payload);
  const values = parts.map((part) => (part === '$query' ? undefined : scalarText(getPath(payload, part))));
  const queryAt = parts.indexOf('$query');
  if (values.some((value, at) => value === undefined && at !== queryAt)) return undefined;
  if (queryAt !== -1) {
    // The query's value is what the old key leaves around the parts the payload gives.
    const before = values.slice(0, queryAt).map((value) => `${value}|`).join('');
    const after = values.slice(queryAt + 1).map((value) => `|${value}`).join('');
    if (!row.key.startsWith(before) || !row.key.endsWith(after) || row.key.length < before.length + after.length) return undefined;
    const q = row.key.slice(before.length, row.key.length - after.length);
    for (let at = 0; at < values.length; at++) if (parts[at] === '$query') values[at] = q;
  }
  const known = values as string[];
  return storedKey(known.join('|')) === row.key ? storedKey(joinKeyParts(known)) : undefined;
}
