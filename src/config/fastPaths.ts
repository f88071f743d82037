/**
 * The code paths that exist only for speed, each of which `FEEDSYNC_FAST_PATHS_OFF` (a comma list
 * of their names) turns off, as Postgres's `enable_*` settings do plans: so that the bench can
 * measure what each buys against its removal in the same run (docs/benchmarks.md), and an
 * operator can rule one out when diagnosing. Every path stores the same as its slower way.
 */
export const FAST_PATHS = {
  /** A re-synced page whose body an earlier envelope proves unchanged is stored without its records. */
  provenPages: 'a page proven unchanged by an earlier envelope is stored without its records',
  /** The page statement is chosen by how the run's last page went (plain insert, upsert, unchanged), not always the general one. */
  statementByLastPage: "a page's statement is chosen by how the run's last page was stored",
} as const;

export type FastPath = keyof typeof FAST_PATHS;

const VARIABLE = 'FEEDSYNC_FAST_PATHS_OFF';
/** The variable's value last read, and what it turns off: read again only when it changes. */
let read: { value: string | undefined; off: ReadonlySet<FastPath> } | undefined;

/** Whether a fast path is on: all are, unless FEEDSYNC_FAST_PATHS_OFF names it. */
export function fastPathOn(path: FastPath): boolean {
  const value = process.env[VARIABLE];
  if (read === undefined || read.value !== value) read = { value, off: fastPathsOff(value) };
  return !read.off.has(path);
}

/** The fast paths a FEEDSYNC_FAST_PATHS_OFF value turns off; an unknown name is an error naming the variable and the names it takes. */
export function fastPathsOff(value: string | undefined): ReadonlySet<FastPath> {
  const names = (value ?? '').split(',').map((name) => name.trim()).filter((name) => name !== '');
  const unknown = names.filter((name) => !(name in FAST_PATHS));
  if (unknown.length > 0) throw new Error(`${VARIABLE}: unknown fast path ${unknown.map((name) => JSON.stringify(name)).join(', ')} (known: ${Object.keys(FAST_PATHS).join(', ')})`);
  return new Set(names as FastPath[]);
}
