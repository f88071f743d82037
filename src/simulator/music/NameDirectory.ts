/** Recent search results kept per directory, so paging through one search does not rescan. */
const CACHED_SEARCHES = 32;

/**
 * Name search and lookup over `count` generated names. The names are generated on first use, not
 * at start, and kept: a substring search then scans an array of lower-cased strings.
 */
export class NameDirectory {
  private lowerNames: string[] | undefined;
  private indexByLowerName: Map<string, number> | undefined;
  private readonly recentSearches = new Map<string, readonly number[]>();

  constructor(
    readonly count: number,
    private readonly nameOf: (index: number) => string,
  ) {}

  /** Indices whose name contains `query` case-insensitively, in index order; an empty query matches all. */
  search(query: string): readonly number[] {
    const needle = query.toLowerCase();
    const cached = this.recentSearches.get(needle);
    if (cached !== undefined) {
      this.recentSearches.delete(needle);
      this.recentSearches.set(needle, cached);
      return cached;
    }
    const names = this.names();
    const matches: number[] = [];
    for (let i = 0; i < names.length; i++) if (names[i]!.includes(needle)) matches.push(i);
    this.recentSearches.set(needle, matches);
    if (this.recentSearches.size > CACHED_SEARCHES) this.recentSearches.delete(this.recentSearches.keys().next().value!);
    return matches;
  }

  /** The first index whose name equals `name` case-insensitively. */
  find(name: string): number | undefined {
    if (this.indexByLowerName === undefined) {
      const byName = new Map<string, number>();
      this.names().forEach((lower, index) => {
        if (!byName.has(lower)) byName.set(lower, index);
      });
      this.indexByLowerName = byName;
    }
    return this.indexByLowerName.get(name.toLowerCase());
  }

  private names(): string[] {
    this.lowerNames ??= Array.from({ length: this.count }, (_, i) => this.nameOf(i).toLowerCase());
    return this.lowerNames;
  }
}
