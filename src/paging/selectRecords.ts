import { getPath } from '../config/records/dotPath.js';
import { isJsonObject, numberOf, scalarText, stringifyJson } from '../config/records/exactJson.js';
import type { RecordCondition } from '../config/records/recordSkipSchema.js';
import type { RecordSelectorConfig } from '../config/schema.js';
import { joinKeyParts } from './compositeKey.js';
import { RecordShapeError } from './RecordShapeError.js';

/** A record of a page that has no key to store it under: not an object, or no text or number at a key part's path. */
export interface UnkeyedRecord {
  /** Its position in the page's list. */
  index: number;
  /** Why, as a dead letter says it (it has no key at "id"). */
  reason: string;
  /** Why, naming the record and where it was (record 3 at data.items has no key at "id"). */
  message: string;
  item: unknown;
}

/** The records of one page and their keys, in page order, how many `records.skip` left out, and those without a key. */
export interface SelectedRecords {
  /** Objects; or one value (text, number, boolean) that is the whole of what the records path holds, under a key of `$query` alone. */
  items: unknown[];
  keys: string[];
  filtered: number;
  unkeyed: UnkeyedRecord[];
}

/** What `data` holds, for an error that says where the records were looked for. */
function describeData(data: unknown): string {
  if (Array.isArray(data)) return 'data is a list';
  return isJsonObject(data) ? `data has: ${Object.keys(data).join(', ') || 'nothing'}` : `data is ${stringifyJson(data)}`;
}

/**
 * Picks the records out of a response's data with the configured path, skip conditions and key.
 * `statedTotal`: the total the page states (see readTotal). A page that states 0 may leave the
 * records path out altogether (Last.fm's empty recent tracks): it is an empty page, not a shape error.
 */
export function selectRecords(data: unknown, selector: RecordSelectorConfig, q: string | undefined, source: string, statedTotal?: number): SelectedRecords {
  const where = selector.path === '.' ? 'data' : `data.${selector.path}`;
  const found = selector.path === '.' ? data : getPath(data, selector.path);
  if (found === undefined && statedTotal === 0) return { items: [], keys: [], filtered: 0, unkeyed: [] };
  if (found === undefined) throw new RecordShapeError(source, `no records at ${where} (${describeData(data)})`);
  // Last.fm sends a list of one as that one object.
  const all: unknown[] = found === null ? [] : Array.isArray(found) ? found : [found];
  const items: unknown[] = [];
  const keys: string[] = [];
  const unkeyed: UnkeyedRecord[] = [];
  const refuse = (index: number, item: unknown, reason: string) => unkeyed.push({ index, reason: `it ${reason}`, message: `record ${index} at ${where} ${reason}`, item });
  const keyParts = Array.isArray(selector.key) ? selector.key : [selector.key];
  // A JSON-RPC result such as eth_blockNumber's "0x1b4" is a value, not an object: stored as sent,
  // it is a record when its key needs nothing from it. In a list, such values would share one key.
  const lone = found !== null && !Array.isArray(found) && !isJsonObject(found);
  if (lone && q !== undefined && keyParts.every((part) => part === '$query')) return { items: [found], keys: [joinKeyParts(keyParts.map(() => q))], filtered: 0, unkeyed: [] };
  for (let index = 0; index < all.length; index++) {
    const item = all[index];
    if (!isJsonObject(item)) {
      refuse(index, item, lone ? 'is not an object (a lone value there is a record under key: $query)' : 'is not an object');
      continue;
    }
    if (selector.skip && selector.skip.some((condition) => matches(item, condition))) continue;
    const parts = keyParts.map((part) => keyPart(item, part, q));
    const missing = parts.find((part) => typeof part !== 'string');
    if (missing !== undefined) {
      refuse(index, item, missing.why);
      continue;
    }
    items.push(item);
    keys.push(joinKeyParts(parts as string[]));
  }
  return { items, keys, filtered: all.length - items.length - unkeyed.length, unkeyed };
}

function matches(item: Record<string, unknown>, condition: RecordCondition): boolean {
  const value = getPath(item, condition.path);
  if (condition.exists !== undefined) return (value !== undefined) === condition.exists;
  // A number kept exactly (1.50, 9007199254740993) equals the configured number it reads as, as parsed natively.
  return (typeof condition.equals === 'number' ? numberOf(value) : value) === condition.equals;
}

/** A key part's text, or why the record has none. */
function keyPart(item: object, part: string, q: string | undefined): string | { why: string } {
  const value = part === '$query' ? q : getPath(item, part);
  const key = part === '$query' ? q : scalarText(value);
  if (key !== undefined) return key;
  if (value === undefined) return { why: `has no key at "${part}"` };
  return { why: `has a key at "${part}" that is ${describeKey(value)}, not a string or number` };
}

function describeKey(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}
