import type { RecordSelectorConfig } from '../config/schema.js';
import { RecordShapeError } from './RecordShapeError.js';
import { getPath } from './jsonPath.js';

/** The records of one page and their keys, in page order. */
export interface SelectedRecords {
  items: Record<string, unknown>[];
  keys: string[];
}

/** Picks the records out of an envelope's `data` with the configured path and key. */
export function selectRecords(data: Record<string, unknown>, selector: RecordSelectorConfig, q: string | undefined, source: string): SelectedRecords {
  const found = getPath(data, selector.path);
  if (found === undefined) {
    throw new RecordShapeError(source, `no records at data.${selector.path} (data has: ${Object.keys(data).join(', ') || 'nothing'})`);
  }
  const items = found === null ? [] : Array.isArray(found) ? found : [found];
  const keys = new Array<string>(items.length);
  for (let index = 0; index < items.length; index++) {
    const item: unknown = items[index];
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      throw new RecordShapeError(source, `record ${index} at data.${selector.path} is not an object`);
    }
    keys[index] = Array.isArray(selector.key)
      ? selector.key.map((part) => keyPart(item, part, q, index, selector.path, source)).join('|')
      : keyPart(item, selector.key, q, index, selector.path, source);
  }
  return { items: items as Record<string, unknown>[], keys };
}

function keyPart(item: object, part: string, q: string | undefined, index: number, path: string, source: string): string {
  const key = part === '$query' ? q : getPath(item, part);
  if (typeof key !== 'string' && typeof key !== 'number') {
    throw new RecordShapeError(source, `record ${index} at data.${path} has no key at "${part}"`);
  }
  return String(key);
}
