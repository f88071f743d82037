import type { JobSchedule } from '../config/loading/readOnlySettings.js';
import { HISTORY_ROOT } from './historyPaths.js';
import { HistoryParamError, readParams } from './historyParams.js';
import { errorScreen } from './screens/errorScreen.js';
import { jobScreen, RUN_STATUSES } from './screens/jobScreen.js';
import { overviewScreen } from './screens/overviewScreen.js';
import { runScreen } from './screens/runScreen.js';
import type { RunHistory } from './RunHistory.js';

export interface HistoryScreensOptions {
  history: RunHistory;
  /** The configured jobs, in config order: the overview's rows. */
  jobs: readonly JobSchedule[];
  now?: () => Date;
}

export interface HistoryAnswer {
  status: number;
  contentType: string;
  body: string;
}

/** Ticks a job's chart shows. */
const CHARTED_TICKS = 60;
/** Runs, and stored pages, a list shows at once. */
const LIST_SIZE = 50;

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const JOB_PATH = new RegExp(`^${HISTORY_ROOT}/jobs/([^/]+)$`);
const RUN_PATH = new RegExp(`^${HISTORY_ROOT}/(${UUID})$`, 'i');
const PAGE_META_PATH = new RegExp(`^${HISTORY_ROOT}/(${UUID})/pages/(\\d{1,9})$`, 'i');

const HTML = 'text/html; charset=utf-8';

/**
 * The run history as pages: `/` and `/runs` (every job), `/runs/jobs/<job>` (its ticks and runs),
 * `/runs/<run id>` (one run), `/runs/<run id>/pages/<n>` (a stored page's metadata, as JSON).
 * Unknown jobs and ids answer a 404 screen, bad query parameters a 400 screen naming the parameter.
 */
export class HistoryScreens {
  private readonly now: () => Date;

  constructor(private readonly options: HistoryScreensOptions) {
    this.now = options.now ?? (() => new Date());
  }

  /** Whether a path is one of the history's. */
  static serves(path: string): boolean {
    return path === '/' || path === HISTORY_ROOT || path.startsWith(`${HISTORY_ROOT}/`);
  }

  async answer(url: URL): Promise<HistoryAnswer> {
    try {
      return await this.route(url);
    } catch (error) {
      if (error instanceof HistoryParamError) return { status: 400, contentType: HTML, body: errorScreen('Bad request', error.message) };
      throw error;
    }
  }

  private async route(url: URL): Promise<HistoryAnswer> {
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const { history, jobs } = this.options;
    if (path === '/' || path === HISTORY_ROOT) {
      readParams(url.searchParams, {});
      return screen(overviewScreen(jobs, await history.lastTicks(jobs.map((job) => job.name)), this.now()));
    }
    const jobMatch = JOB_PATH.exec(path);
    if (jobMatch) {
      const job = decodeSegment(jobMatch[1]!);
      const { page: pageNumber, status } = readParams(url.searchParams, { page: true, statuses: RUN_STATUSES });
      if (job === undefined) return notFound(`There is no job named ${jobMatch[1]}.`);
      const [ticks, runs] = await Promise.all([history.ticks(job, CHARTED_TICKS), history.runs(job, status, pageNumber, LIST_SIZE)]);
      const configured = jobs.some((candidate) => candidate.name === job);
      if (!configured && ticks.length === 0 && runs.rows.length === 0) return notFound(`There is no job named ${job}.`);
      return screen(jobScreen({ job, ticks, runs, status, page: pageNumber }));
    }
    const runMatch = RUN_PATH.exec(path);
    if (runMatch) {
      const runId = runMatch[1]!.toLowerCase();
      const { page: pageNumber } = readParams(url.searchParams, { page: true });
      const run = await history.run(runId);
      if (!run) return notFound(`There is no run ${runId}.`);
      const [pages, attempts] = await Promise.all([history.runPages(runId, pageNumber, LIST_SIZE), run.notice_id ? history.noticeAttempts(run.notice_id) : []]);
      return screen(runScreen({ run, pages, page: pageNumber, attempts }));
    }
    const metaMatch = PAGE_META_PATH.exec(path);
    if (metaMatch) {
      readParams(url.searchParams, {});
      const meta = await history.pageMeta(metaMatch[1]!.toLowerCase(), Number(metaMatch[2]));
      if (!meta) return notFound(`Run ${metaMatch[1]} has no stored page ${metaMatch[2]}.`);
      const body = { pageSeq: meta.page_seq, requestUrl: meta.request_url, status: meta.status, message: meta.message, bytes: meta.bytes, contentHash: meta.content_hash, latencyMs: meta.latency_ms, fetchedAt: meta.fetched_at };
      return { status: 200, contentType: 'application/json; charset=utf-8', body: JSON.stringify(body, null, 2) };
    }
    return notFound('There is no such page.');
  }
}

function screen(body: string): HistoryAnswer {
  return { status: 200, contentType: HTML, body };
}

function notFound(message: string): HistoryAnswer {
  return { status: 404, contentType: HTML, body: errorScreen('Not found', message) };
}

/** A path segment decoded; undefined when its percent-encoding is broken. */
function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
