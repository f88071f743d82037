import type pg from 'pg';
import { sweepFullRefresh } from './statements/sweepFullRefresh.js';

/** Marks deleted the records a full_refresh query no longer returns. */
export class RecordDeletions {
  constructor(private readonly pool: Pick<pg.Pool, 'query'>) {}

  /**
   * Called once a run of the query has stored every page (not partial, not failed): the records
   * its scope's earlier runs returned and this one did not are marked deleted. Idempotent: a
   * resumed run that sweeps again finds nothing left. Returns how many were marked.
   */
  async sweep(runId: string, scope: string): Promise<number> {
    const { rows } = await this.pool.query<{ deleted: number }>(sweepFullRefresh.with({ runId, scope }));
    return rows[0]?.deleted ?? 0;
  }
}
