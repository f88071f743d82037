import type pg from 'pg';
import { columnsOf } from '../database/columnsOf.js';
import type { DatabaseClock } from '../database/DatabaseClock.js';
import type { ChangeHorizons } from '../records/ChangeHorizons.js';
import { NaturalBatcher } from '../database/NaturalBatcher.js';
import { runStateOf, type RunIdentity, type RunRow, type RunState } from './runState.js';
import { claimRuns, type ClaimedRunRow, type ClaimRunsParams, type RunIdentityColumns } from './statements/claimRuns.js';
import { findRunByKey } from './statements/findRunByKey.js';

/**
 * Starts runs, or takes them up again. Claims of concurrent runs share a statement (see
 * NaturalBatcher): with many short runs, round trips, not the work in them, are what a run
 * costs. One statement never touches a run key twice.
 */
export class RunClaims {
  private readonly batches = new NaturalBatcher<RunIdentity, ClaimedRunRow | undefined>((identities) => this.claimBatch(identities), {
    keyOf: (identity) => identity.runKey,
  });

  constructor(
    private readonly pool: Pick<pg.Pool, 'query'>,
    private readonly clock: DatabaseClock,
    private readonly horizons: ChangeHorizons,
  ) {}

  /**
   * Starts the run with this key, or resumes it (attempt + 1) when an earlier attempt did not
   * end it. A run that already ended (succeeded, partial, or failed for good) is returned as is and must
   * not run again.
   */
  async claim(identity: RunIdentity): Promise<RunState> {
    const claimed = await this.batches.run(identity);
    if (claimed) return runStateOf(claimed);
    const existing = await this.findByKey(identity.runKey);
    if (!existing) throw new Error(`run ${identity.runKey} vanished while being claimed`);
    return existing;
  }

  async findByKey(runKey: string): Promise<RunState | undefined> {
    const { rows } = await this.pool.query<RunRow>(findRunByKey.with({ runKey }));
    return rows[0] ? runStateOf(rows[0]) : undefined;
  }

  private async claimBatch(identities: readonly RunIdentity[]): Promise<(ClaimedRunRow | undefined)[]> {
    const params = columnsOf<RunIdentity, ClaimRunsParams>(identities, (identity) => ({ ...identityColumns(identity), traceIds: identity.traceId ?? null }));
    const { rows } = await this.pool.query<ClaimedRunRow>(claimRuns.with(params));
    if (rows[0]) {
      this.clock.observe(rows[0].now);
      this.horizons.observe(rows[0].change_horizon);
    }
    const byKey = new Map(rows.map((row) => [row.run_key, row]));
    return identities.map((identity) => byKey.get(identity.runKey));
  }
}

/** A run's identity as the columns of the statements that create runs (claimRuns, insertTickRuns). */
export function identityColumns(identity: RunIdentity): { [Column in keyof RunIdentityColumns]: RunIdentityColumns[Column][number] } {
  return {
    ids: identity.id ?? null,
    runKeys: identity.runKey,
    jobs: identity.job,
    sources: identity.source,
    queryIndexes: identity.queryIndex,
    queryKeys: identity.queryKey,
    queries: JSON.stringify(identity.query),
    scheduledFors: identity.scheduledFor ?? null,
    tickIds: identity.tickId ?? null,
    values: identity.value ?? null,
  };
}
