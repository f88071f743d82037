import type pg from 'pg';
import { runStateOf, type RunRow, type RunState } from '../runs/runState.js';
import { findRunningReplays } from './statements/findRunningReplays.js';
import { readPagesToReplay, type PageToReplayRow } from './statements/readPagesToReplay.js';

/** Which stored pages a replay run reads: those of one query of a job, of one value, since a time. */
export interface PagesToReplay {
  job: string;
  queryIndex: number;
  value?: string;
  since?: Date;
  /** Only the last succeeded run of each query key (value): for full_refresh queries. */
  latestRunOnly?: boolean;
}

/** Where a replay run stands: the last page it replayed. Its checkpoint, so a crashed replay resumes. */
export interface ReplayPosition {
  /** Postgres's text of the run's start, exact to the microsecond. */
  runStartedAt: string;
  runId: string;
  pageSeq: number;
}

/** Before every page. */
export const REPLAY_START: ReplayPosition = { runStartedAt: '1970-01-01 00:00:00+00', runId: '00000000-0000-0000-0000-000000000000', pageSeq: 0 };

/** Reads stored pages back, in the order their runs received them, for `feedsync replay`. */
export class ReplayReader {
  constructor(private readonly pool: Pick<pg.Pool, 'query'>) {}

  /** Up to `limit` pages after a position. */
  async after(of: PagesToReplay, position: ReplayPosition, limit: number): Promise<PageToReplayRow[]> {
    const { rows } = await this.pool.query<PageToReplayRow>(
      readPagesToReplay.with({
        job: of.job,
        queryIndex: of.queryIndex,
        value: of.value ?? null,
        since: of.since ?? null,
        latestRunOnly: of.latestRunOnly ?? false,
        afterStartedAt: position.runStartedAt,
        afterRunId: position.runId,
        afterPageSeq: position.pageSeq,
        limit,
      }),
    );
    return rows;
  }

  /** The unfinished runs of a running replay tick whose key starts so: a replay a crash stopped. */
  async unfinishedReplay(tickKeyPrefix: string): Promise<RunState[]> {
    const { rows } = await this.pool.query<RunRow>(findRunningReplays.with({ tickKeyPrefix }));
    return rows.map(runStateOf);
  }
}
