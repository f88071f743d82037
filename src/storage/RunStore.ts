import { poolOf, type Database } from './database.js';
import { DatabaseClock } from './DatabaseClock.js';
import { IncrementalCursors } from './IncrementalCursors.js';
import { PageWrites } from './PageWrites.js';
import { RecordDeletions } from './RecordDeletions.js';
import { RunClaims } from './RunClaims.js';
import { RunFinishes } from './RunFinishes.js';
import { FanOutValues } from './FanOutValues.js';
import { JobTicks } from './JobTicks.js';
import { RunningRuns } from './RunningRuns.js';
import { TickEndListeners, type TickNoticeFor } from './TickEnds.js';

/** The sync_runs lifecycle, a part per step: each step is one transaction. */
export interface RunStore {
  claims: RunClaims;
  pages: PageWrites;
  /** full_refresh: marking deleted what a complete run no longer returned. */
  deletions: RecordDeletions;
  finishes: RunFinishes;
  running: RunningRuns;
  cursors: IncrementalCursors;
  ticks: JobTicks;
  fanOut: FanOutValues;
  /** Told when ticks end (their notice, if any, committed). */
  tickEnds: TickEndListeners;
}

export interface RunStoreOptions {
  /** Makes a job tick's notice as the tick ends; absent: ticks post none. */
  tickNoticeFor?: TickNoticeFor;
}

export function openRunStore(db: Database, options: RunStoreOptions = {}): RunStore {
  const pool = poolOf(db);
  // Claims observe the database's clock; finishes stamp their times with it.
  const clock = new DatabaseClock();
  const tickEnds = new TickEndListeners();
  return {
    claims: new RunClaims(pool, clock),
    pages: new PageWrites(pool),
    deletions: new RecordDeletions(pool),
    finishes: new RunFinishes(pool, clock, options.tickNoticeFor, tickEnds),
    running: new RunningRuns(pool),
    cursors: new IncrementalCursors(pool),
    ticks: new JobTicks(pool, options.tickNoticeFor, tickEnds),
    tickEnds,
    fanOut: new FanOutValues(pool),
  };
}
