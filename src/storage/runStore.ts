import { poolOf, type Database } from './database/database.js';
import { DatabaseClock } from './database/DatabaseClock.js';
import { IncrementalCursors } from './runs/IncrementalCursors.js';
import { PageWrites } from './pages/PageWrites.js';
import { ChangeHorizons } from './records/ChangeHorizons.js';
import { RecordDeletions } from './records/RecordDeletions.js';
import { RunClaims } from './runs/RunClaims.js';
import { RunFinishes } from './runs/RunFinishes.js';
import { FanOutValues } from './records/FanOutValues.js';
import { JobTicks } from './ticks/JobTicks.js';
import { RunningRuns } from './runs/RunningRuns.js';
import { RunWarnings } from './runs/RunWarnings.js';
import type { TickNoticeFor } from './ticks/tickEnding.js';
import { TickEndListeners } from './ticks/TickEndListeners.js';

/** The sync_runs lifecycle, a part per step: each step is one transaction. */
export interface RunStore {
  claims: RunClaims;
  pages: PageWrites;
  /** full_refresh: marking deleted what a complete run no longer returned. */
  deletions: RecordDeletions;
  finishes: RunFinishes;
  /** What upstreams said beside the data they sent, kept on the run. */
  warnings: RunWarnings;
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
  // Claims return the change horizon, which a run's first page then uses.
  const horizons = new ChangeHorizons(pool);
  return {
    claims: new RunClaims(pool, clock, horizons),
    pages: new PageWrites(pool, horizons),
    deletions: new RecordDeletions(pool),
    finishes: new RunFinishes(pool, clock, options.tickNoticeFor, tickEnds),
    warnings: new RunWarnings(pool),
    running: new RunningRuns(pool),
    cursors: new IncrementalCursors(pool),
    ticks: new JobTicks(pool, options.tickNoticeFor, tickEnds),
    tickEnds,
    fanOut: new FanOutValues(pool),
  };
}
