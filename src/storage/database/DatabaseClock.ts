/**
 * The database's clock as seen from this machine: run times are the database's (start times are
 * set by `now()` in SQL), so a finish time made here is shifted by the offset last observed.
 */
export class DatabaseClock {
  /** This machine's clock minus the database's, as last observed. */
  private offsetMs = 0;

  /** Notes the database's `now()` as returned by a statement that just ended. */
  observe(databaseNow: Date): void {
    this.offsetMs = Date.now() - databaseNow.getTime();
  }

  /** The database's time now, never before `notBefore` (the offset carries a round trip's error). */
  now(notBefore: Date): Date {
    return new Date(Math.max(notBefore.getTime(), Date.now() - this.offsetMs));
  }
}
