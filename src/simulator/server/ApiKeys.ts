/** How the simulator regards the key a request carries. */
export type KeyStanding = 'valid' | 'suspended' | 'unknown';

/**
 * The keys the music and explorer endpoints know. Where a request carries its key (a header, a
 * query parameter) is the dialect's business; this only judges the key found there.
 */
export class ApiKeys {
  private readonly valid: ReadonlySet<string>;
  private readonly suspended: ReadonlySet<string>;

  constructor(valid: readonly string[], suspended: readonly string[] = []) {
    this.valid = new Set(valid);
    this.suspended = new Set(suspended);
  }

  /** A key listed as suspended is suspended even if it is also listed as valid. */
  standingOf(key: string | undefined): KeyStanding {
    if (key === undefined) return 'unknown';
    if (this.suspended.has(key)) return 'suspended';
    return this.valid.has(key) ? 'valid' : 'unknown';
  }
}
