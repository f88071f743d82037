import { getPath } from '../config/records/dotPath.js';
import { isExactNumber, numberOf, scalarText, stringifyJson } from '../config/records/exactJson.js';
import type { RecordCondition } from '../config/records/recordSkipSchema.js';
import type { RecordSelectorConfig } from '../config/schema.js';
import { joinKeyParts } from './compositeKey.js';
import { RecordShapeError } from './RecordShapeError.js';

/** The records of one page and their keys, in page order, and how many `records.skip` left out. */
export interface SelectedRecords {
  items: Record<string, unknown>[];
  keys: string[];
  filtered: number;
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value) && !isExactNumber(value);

/** What `data` holds, for an error that says where the records were looked for. */
function describeData(data: unknown): string {
  if (Array.isArray(data)) return 'data is a list';
  return isRecord(data) ? `data has: ${Object.keys(data).join(', ') || 'nothing'}` : `data is ${stringifyJson(data)}`;
}

/** Picks the records out of a response's data with the configured path, skip conditions and key. */
export function selectRecords(data: unknown, selector: RecordSelectorConfig, q: string | undefined, source: string): SelectedRecords {
  const where = selector.path === '.' ? 'data' : `data.${selector.path}`;
  const found = selector.path === '.' ? data : getPath(data, selector.path);
  if (found === undefined) throw new RecordShapeError(source, `no records at ${where} (${describeData(data)})`);
  // Last.fm sends a list of one as that one object.
  const all: unknown[] = found === null ? [] : Array.isArray(found) ? found : [found];
  const items: Record<string, unknown>[] = [];
  const keys: string[] = [];
  for (let index = 0; index < all.length; index++) {
    const item = all[index];
    if (!isRecord(item)) throw new RecordShapeError(source, `record ${index} at ${where} is not an object`);
    if (selector.skip && selector.skip.some((condition) => matches(item, condition))) continue;
    items.push(item);
    keys.push(Array.isArray(selector.key) ? joinKeyParts(selector.key.map((part) => keyPart(item, part, q, index, where, source))) : keyPart(item, selector.key, q, index, where, source));
  }
  return { items, keys, filtered: all.length - items.length };
}

function matches(item: Record<string, unknown>, condition: RecordCondition): boolean {
  const value = getPath(item, condition.path);
  if (condition.exists !== undefined) return (value !== undefined) === condition.exists;
  // A number kept exactly (1.50, 9007199254740993) equals the configured number it reads as, as parsed natively.
  return (typeof condition.equals === 'number' ? numberOf(value) : value) === condition.equals;
}

function keyPart(item: object, part: string, q: string | undefined, index: number, where: string, source: string): string {
  const value = part === '$query' ? q : getPath(item, part);
  const key = part === '$query' ? q : scalarText(value);
  if (key !== undefined) return key;
  if (value === undefined) throw new RecordShapeError(source, `record ${index} at ${where} has no key at "${part}"`);
  throw new RecordShapeError(source, `record ${index} at ${where} has a key at "${part}" that is ${describeKey(value)}, not a string or number`);
}

function describeKey(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}
