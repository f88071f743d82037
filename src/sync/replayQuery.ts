import type { ResolvedQuery } from '../config/jobs/resolveQuery.js';
import { resolveQuery } from '../config/jobs/resolveQuery.js';
import type { Config, JobConfig } from '../config/schema.js';
import { readResponse } from '../http/envelope.js';
import { responseShapeOf } from '../http/responses/responsePresets.js';
import { UpstreamError } from '../http/UpstreamError.js';
import type { Logger } from '../observability/logger.js';
import { RecordShapeError } from '../paging/RecordShapeError.js';
import { selectRecords } from '../paging/selectRecords.js';
import { readTotal } from '../paging/readTotal.js';
import type { RecordCounts } from '../storage/records/recordCounts.js';
import type { RunStore } from '../storage/runStore.js';
import type { NoticeToQueue, RunIdentity, RunState } from '../storage/runs/runState.js';
import { REPLAY_START, type ReplayPosition, type ReplayReader, type PagesToReplay } from '../storage/pages/ReplayReader.js';
import type { PageToReplayRow } from '../storage/pages/statements/readPagesToReplay.js';
import { serialiseRecords, type SerialisedRecords } from '../storage/records/serialiseRecords.js';
import { pageRecords } from './pageRecords.js';
import { recordOf } from './runFailures.js';
import type { SyncProgress } from './syncQuery.js';
import { MERGE, pageWriteMode } from '../storage/pages/writeModes.js';

/** What a replay does with a stored page the current config cannot read (its records path gone, say). */
export type ReplayOnError = 'stop' | 'skip';

export interface ReplayOptions {
  store: Pick<RunStore, 'claims' | 'pages' | 'finishes'>;
  replayReader: ReplayReader;
  logger: Logger;
  onError: ReplayOnError;
  noticeFor?: (run: RunState) => NoticeToQueue | undefined;
  onPage?: (progress: SyncProgress) => void;
  /** Stops after the page in hand; the run stays resumable from its checkpoint. */
  signal?: AbortSignal;
}

/** How one replay run went. */
export interface ReplaySummary {
  runId: string;
  status: 'succeeded' | 'failed' | 'interrupted';
  pages: number;
  counts: RecordCounts;
  /** Pages left out under --on-error skip, each as "run <id> page <n>: <why>". */
  skipped: string[];
  error?: string;
}

/** Pages read from Postgres at once: a few megabytes of bodies at the most. */
const BATCH = 20;

/**
 * Replays one query's stored pages into records with the current config, as a sync would store
 * them (new / updated / unchanged counted), without a request upstream. The replay run stores an
 * envelope per page that refers to the body already stored, and its checkpoint is the last page
 * replayed, so a replay stopped by a crash or Ctrl-C goes on from there when claimed again.
 */
export async function replayQuery(config: Config, job: JobConfig, identity: RunIdentity, of: PagesToReplay, options: ReplayOptions): Promise<ReplaySummary> {
  const run = await options.store.claims.claim(identity);
  const log = options.logger.child({ runId: run.id, job: job.name, queryIndex: of.queryIndex, replay: true });
  const shape = responseShapeOf(config.sources[job.source]!.response, config.sources[job.source]!.errors);
  const counts: RecordCounts = { new: 0, updated: 0, unchanged: 0 };
  const skipped: string[] = [];
  let position = positionOf(run.checkpoint);
  let pages = run.pages;
  const end = async (status: 'succeeded' | 'failed', error?: Error): Promise<ReplaySummary> => {
    const failure = error ? recordOf(error) : undefined;
    await options.store.finishes.finish(run.id, { status, errorKind: failure?.kind, error: failure?.message }, (ended) => options.noticeFor?.(ended));
    return { runId: run.id, status, pages, counts, skipped, error: failure?.message };
  };
  for (;;) {
    const batch = await options.replayReader.after(of, position, BATCH);
    if (batch.length === 0) break;
    for (const page of batch) {
      if (options.signal?.aborted) return { runId: run.id, status: 'interrupted', pages, counts, skipped };
      const where = `run ${page.run_id} page ${page.page_seq}`;
      let records: SerialisedRecords;
      let query: ResolvedQuery | undefined;
      try {
        query = resolveQuery(config, job, of.queryIndex, page.fan_value ?? undefined);
        records = recordsOf(page, query, shape, log.child({ sourceRun: page.run_id, page: page.page_seq }));
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        if (!(error instanceof RecordShapeError || error instanceof UpstreamError) || options.onError === 'stop') {
          return end('failed', new ReplayPageError(`${where} no longer fits the config: ${reason}`, { cause: error }));
        }
        log.warn({ sourceRun: page.run_id, page: page.page_seq, reason }, 'stored page skipped: it no longer fits the config');
        skipped.push(`${where}: ${reason}`);
        records = serialiseRecords([], []);
      }
      position = { runStartedAt: page.run_started_at, runId: page.run_id, pageSeq: page.page_seq };
      const stored = await options.store.pages.storePage(
        run.id,
        pages,
        {
          requestUrl: page.request_url,
          raw: page.body,
          status: page.status,
          message: page.message,
          bytes: page.bytes,
          contentHash: page.content_hash,
          latencyMs: page.latency_ms ?? 0,
          kind: query?.records.kind ?? job.records?.kind ?? 'unknown',
          records,
          // A replay stores what a sync stored before; it keeps and uses no proof of its own.
          derivation: null,
          checkpoint: { replayedThrough: position },
          cursorValue: null,
          writeMode: query ? pageWriteMode(query.mode, query.job, query.queryKey) : MERGE,
          // Its records are the receiving run's, and one that run's successors changed since is left as they stored it.
          sourceRun: { id: page.run_id, startedAt: page.run_started_at },
          bodyStored: true,
        },
        job.source,
      );
      pages += 1;
      counts.new += stored.counts.new;
      counts.updated += stored.counts.updated;
      counts.unchanged += stored.counts.unchanged;
      options.onPage?.({ runId: run.id, pages, records: counts.new + counts.updated + counts.unchanged, pageCounts: stored.counts, expectedTotal: undefined });
    }
  }
  if (skipped.length > 0) return end('failed', new ReplayPageError(`${skipped.length} stored page(s) skipped, as --on-error skip asked: ${skipped.slice(0, 3).join('; ')}${skipped.length > 3 ? '; …' : ''}`));
  return end('succeeded');
}

/** A stored page's records under the current config: its response shape, record path and key. */
function recordsOf(page: PageToReplayRow, query: ResolvedQuery, shape: ReturnType<typeof responseShapeOf>, log: Logger): SerialisedRecords {
  const read = readResponse(page.body, shape, query.sourceName, 200);
  if (!read.ok) throw new RecordShapeError(query.sourceName, `the body reads as an error under the source's response settings (${read.envelope.message || 'no message'})`);
  const selected = selectRecords(read.envelope.data, query.records, query.subject, query.sourceName, readTotal(read.envelope.data, query.paging.totalPath));
  return pageRecords(query, selected, log);
}

function positionOf(checkpoint: unknown): ReplayPosition {
  const through = (checkpoint as { replayedThrough?: ReplayPosition } | null)?.replayedThrough;
  return through ?? REPLAY_START;
}

/** A stored page that could not be replayed, with which one and why. */
export class ReplayPageError extends Error {
  override readonly name = 'ReplayPageError';
}
