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
