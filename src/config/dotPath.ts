import { z } from 'zod';

const SEGMENTS = '[A-Za-z0-9_@$:#-]+(\\.[A-Za-z0-9_@$:#-]+)*';

/** A dot path into parsed JSON, e.g. `results.trackmatches.track` or `recenttracks.@attr.totalPages`. */
export const dotPath = z.string().regex(new RegExp(`^${SEGMENTS}$`), 'must be a dot path such as "results.artistmatches.artist"');

/** `.` for the value itself (a body that is the data, data that is the list), or a dot path into it. */
export const dotPathOrWhole = z.string().regex(new RegExp(`^(\\.|${SEGMENTS})$`), 'must be "." (the whole value) or a dot path such as "result"');
/** Reads a dot path (`results.trackmatches.track`) from parsed JSON; undefined when absent. */
export function getPath(value: unknown, path: string): unknown {
  let current = value;
  let start = 0;
  for (;;) {
    if (current === null || typeof current !== 'object') return undefined;
    const end = path.indexOf('.', start);
    const segment = end === -1 ? path.slice(start) : path.slice(start, end);
    current = (current as Record<string, unknown>)[segment];
    if (end === -1) return current;
    start = end + 1;
  }
}
