import { poolOf, type Database } from './database.js';
import { DatabaseClock } from './DatabaseClock.js';
import { IncrementalCursors } from './IncrementalCursors.js';
import { PageWrites } from './PageWrites.js';
import { RunClaims } from './RunClaims.js';
import { RunFinishes } from './RunFinishes.js';
import { RunningRuns } from './RunningRuns.js';

/** The sync_runs lifecycle, a part per step: each step is one transaction. */
export interface RunStore {
  claims: RunClaims;
  pages: PageWrites;
  finishes: RunFinishes;
  running: RunningRuns;
  cursors: IncrementalCursors;
}

export function openRunStore(db: Database): RunStore {
  const pool = poolOf(db);
  // Claims observe the database's clock; finishes stamp their times with it.
  const clock = new DatabaseClock();
  return {
    claims: new RunClaims(pool, clock),
    pages: new PageWrites(pool),
    finishes: new RunFinishes(pool, clock),
    running: new RunningRuns(pool),
    cursors: new IncrementalCursors(pool),
  };
}
