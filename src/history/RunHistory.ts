import type pg from 'pg';
import { tickStateOf, type TickRow, type TickState } from '../storage/ticks/tickState.js';
import { readJobRuns } from './statements/readJobRuns.js';
import { readJobRunsWithStatus } from './statements/readJobRunsWithStatus.js';
import { readJobTicks } from './statements/readJobTicks.js';
import { readLastTicks, type LastTickRow } from './statements/readLastTicks.js';
import { readNoticeAttempts, type NoticeAttemptRow } from './statements/readNoticeAttempts.js';
import { readPageMeta } from './statements/readPageMeta.js';
import { readRun, type RunDetailRow } from './statements/readRun.js';
import type { PageMetaRow } from '../storage/pages/pageMeta.js';
import { readRunPages } from './statements/readRunPages.js';
import { readRunPageTotals, type PageTotalsRow } from './statements/readRunPageTotals.js';
import type { RunListRow } from './statements/runListColumns.js';

/** A job's latest tick (none before its first) and when its latest scheduled tick was for. */
export interface JobLastTick {
  job: string;
  tick: TickState | undefined;
  lastScheduledFor: Date | undefined;
}

/** A page of rows, and whether more follow it. */
export interface RowsPage<T> {
  rows: T[];
  more: boolean;
}

export interface RunPagesView {
  totals: PageTotalsRow;
  pages: PageMetaRow[];
  more: boolean;
}

/** Notice attempts a run page lists at the most. */
const LISTED_ATTEMPTS = 100;

/**
 * What the history page reads: ticks, runs, stored pages' metadata and notice attempts, each a
 * bounded, indexed query, so that no page reads a job's whole history.
 */
export class RunHistory {
  constructor(private readonly pool: pg.Pool) {}

  async lastTicks(jobs: readonly string[]): Promise<JobLastTick[]> {
    const { rows } = await this.pool.query<LastTickRow>(readLastTicks.with({ jobs: [...jobs] }));
    return rows.map((row) => ({
      job: row.config_job,
      tick: row.id === null ? undefined : tickStateOf(row as TickRow),
      lastScheduledFor: row.last_scheduled_for ?? undefined,
    }));
  }

  /** A job's latest ticks, oldest first (as a chart reads them). */
  async ticks(job: string, limit: number): Promise<TickState[]> {
    const { rows } = await this.pool.query<TickRow>(readJobTicks.with({ job, limit }));
    return rows.map(tickStateOf).reverse();
  }

  /** A page of a job's runs, newest first, of one status or all. */
  async runs(job: string, status: string | undefined, page: number, pageSize: number): Promise<RowsPage<RunListRow>> {
    const window = { job, limit: pageSize + 1, offset: (page - 1) * pageSize };
    const statement = status === undefined ? readJobRuns.with(window) : readJobRunsWithStatus.with({ ...window, status });
    return rowsPage((await this.pool.query<RunListRow>(statement)).rows, pageSize);
  }

  async run(runId: string): Promise<RunDetailRow | undefined> {
    return (await this.pool.query<RunDetailRow>(readRun.with({ runId }))).rows[0];
  }

  async runPages(runId: string, page: number, pageSize: number): Promise<RunPagesView> {
    const [totals, listed] = await Promise.all([
      this.pool.query<PageTotalsRow>(readRunPageTotals.with({ runId })),
      this.pool.query<PageMetaRow>(readRunPages.with({ runId, limit: pageSize + 1, offset: (page - 1) * pageSize })),
    ]);
    const { rows, more } = rowsPage(listed.rows, pageSize);
    return { totals: totals.rows[0]!, pages: rows, more };
  }

  async pageMeta(runId: string, pageSeq: number): Promise<PageMetaRow | undefined> {
    return (await this.pool.query<PageMetaRow>(readPageMeta.with({ runId, pageSeq }))).rows[0];
  }

  async noticeAttempts(noticeId: string): Promise<NoticeAttemptRow[]> {
    return (await this.pool.query<NoticeAttemptRow>(readNoticeAttempts.with({ noticeId, limit: LISTED_ATTEMPTS }))).rows;
  }
}

/** Rows read one past the page size: the extra one only says that more follow. */
function rowsPage<T>(rows: T[], pageSize: number): RowsPage<T> {
  return { rows: rows.slice(0, pageSize), more: rows.length > pageSize };
}
