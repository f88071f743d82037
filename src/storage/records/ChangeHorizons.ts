import type pg from 'pg';
import { readChangeHorizon, type ChangeHorizonRow } from './statements/readChangeHorizon.js';

/**
 * The change horizons this process has read (see readChangeHorizon), the newest kept. Any horizon
 * read before a statement is sound for it: an older one is only lower, and keeps fewer pages'
 * proofs (see KIND_HIGHEST_BELOW_HORIZON). A run's claim returns one (see claimRuns), so the
 * run's first page needs no read of its own: one-page runs pay no round trip for it.
 */
export class ChangeHorizons {
  private newest: bigint | undefined;

  constructor(private readonly pool: Pick<pg.Pool, 'query'>) {}

  /** Keeps a horizon a statement returned. */
  observe(horizon: string): void {
    const value = BigInt(horizon);
    if (this.newest === undefined || value > this.newest) this.newest = value;
  }

  /** The newest horizon read so far, or one read now if none was. */
  async known(): Promise<string> {
    return this.newest === undefined ? this.read() : this.newest.toString();
  }

  /** A horizon read now: above every change committed before the call. */
  async read(): Promise<string> {
    const { rows } = await this.pool.query<ChangeHorizonRow>(readChangeHorizon.with({}));
    const horizon = rows[0]!.horizon;
    this.observe(horizon);
    return horizon;
  }
}
