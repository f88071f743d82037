import type pg from 'pg';
import { sweepFullRefresh } from './statements/sweepFullRefresh.js';

/** Marks deleted the records a full_refresh query no longer returns. */
export class RecordDeletions {
  constructor(private readonly pool: Pick<pg.Pool, 'query'>) {}

  /**
   * Called once a run of the query has stored every page (not partial, not failed): the records
   * its scope's earlier runs returned and this one did not are marked deleted. Idempotent: a
   * resumed run that sweeps again finds nothing left. Returns how many this sweep marked, the
   * run's count of them all (with any sweep of its own that committed as its connection dropped),
   * and the run row's version after counting them (a finish fenced on the run's version needs it).
   */
  async sweep(runId: string, scope: string): Promise<{ deleted: number; recordsDeleted: number; version: string }> {
    const { rows } = await this.pool.query<{ deleted: number; records_deleted: number; version: string | null }>(sweepFullRefresh.with({ runId, scope }));
    const row = rows[0];
    if (!row?.version) throw new Error(`run ${runId} does not exist`);
    return { deleted: row.deleted, recordsDeleted: row.records_deleted, version: row.version };
  }
}
