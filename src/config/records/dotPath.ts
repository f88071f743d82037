import { z } from 'zod';

const SEGMENTS = '[A-Za-z0-9_@$:#-]+(\\.[A-Za-z0-9_@$:#-]+)*';

/** A JSON parser that assigns fields sets an object's prototype for `__proto__`: no field can be read there. */
const noPrototype = (path: string) => !path.split('.').includes('__proto__');
const PROTOTYPE_SEGMENT = 'must not go through __proto__ (it names every object\'s prototype, not a field)';

/** A dot path into parsed JSON, e.g. `results.trackmatches.track` or `recenttracks.@attr.totalPages`. */
export const dotPath = z.string().regex(new RegExp(`^${SEGMENTS}$`), 'must be a dot path such as "results.artistmatches.artist"').refine(noPrototype, PROTOTYPE_SEGMENT);

/** `.` for the value itself (a body that is the data, data that is the list), or a dot path into it. */
export const dotPathOrWhole = z
  .string()
  .regex(new RegExp(`^(\\.|${SEGMENTS})$`), 'must be "." (the whole value) or a dot path such as "result"')
  .refine(noPrototype, PROTOTYPE_SEGMENT);
/** Reads a dot path (`results.trackmatches.track`) from parsed JSON; undefined when absent. */
export function getPath(value: unknown, path: string): unknown {
  let current = value;
  let start = 0;
  for (;;) {
    if (current === null || typeof current !== 'object') return undefined;
    const end = path.indexOf('.', start);
    const segment = end === -1 ? path.slice(start) : path.slice(start, end);
    // Own fields only: `constructor` or `toString` of data that has none is absent, not Object's.
    current = Object.hasOwn(current, segment) ? (current as Record<string, unknown>)[segment] : undefined;
    if (end === -1) return current;
    start = end + 1;
  }
}
