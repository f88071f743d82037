import { getPath } from '../config/records/dotPath.js';
import { numberOf } from '../config/records/exactJson.js';

/** Where a total is looked for when a query names no `totalPath`. */
export const DEFAULT_TOTAL_PATHS: readonly string[] = ['total', 'results.total', '@attr.total'];

/**
 * The result total the upstream gives in `data`, from the first of `paths` (the configured
 * `totalPath`, or DEFAULT_TOTAL_PATHS) that holds a number, or digits as text; undefined when none does.
 */
export function readTotal(data: unknown, paths: readonly string[] = DEFAULT_TOTAL_PATHS): number | undefined {
  for (const path of paths) {
    const total = numberOrDigits(getPath(data, path));
    if (total !== undefined) return total;
  }
  return undefined;
}

/** A number (one kept exactly as its nearest JS number), or digits as text (Last.fm sends "7"); else undefined. */
export function numberOrDigits(value: unknown): number | undefined {
  return typeof value === 'string' ? (/^\d+$/.test(value) ? Number(value) : undefined) : numberOf(value);
}
