import { getPath } from '../config/dotPath.js';

/**
 * The result total the upstream gives in `data`, from the first of `paths` that holds a
 * number, or digits as text; undefined when none does.
 */
export function readTotal(data: unknown, paths: readonly string[]): number | undefined {
  for (const path of paths) {
    const value = getPath(data, path);
    const total = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : undefined;
    if (total !== undefined) return total;
  }
  return undefined;
}
