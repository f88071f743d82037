import { QueueEvents, type ConnectionOptions } from 'bullmq';
import { findJob } from '../config/jobs/resolveQuery.js';
import type { Config } from '../config/schema.js';
import type { OpenedTick, TickRun } from '../storage/ticks/JobTicks.js';
import type { RunClaims } from '../storage/runs/RunClaims.js';
import type { RunStore } from '../storage/runStore.js';
import { launchTick } from './launchTick.js';
import type { Queues } from './queues.js';
import type { SyncJobResult } from './SyncWorker.js';

/** Which runs of a job to queue: all, one query's, or one fan-out value's. */
export interface EnqueueSelection {
  queryIndex?: number;
  value?: string;
}

/** "Sync now": a tick of a job of its own, its runs queued for any worker, each with a fresh run id. */
export async function enqueueRuns(config: Config, store: Pick<RunStore, 'ticks' | 'fanOut' | 'running'>, queues: Queues, jobName: string, selection: EnqueueSelection = {}): Promise<OpenedTick> {
  const opened = await launchTick(config, store, queues, findJob(config, jobName), { trigger: 'enqueue', ...selection });
  // A manual tick's key is new each time: it cannot have been started elsewhere.
  if (!opened) throw new Error(`the tick of job "${jobName}" was started twice`);
  return opened;
}

export type RunEnd = { runKey: string; ok: true; result: SyncJobResult } | { runKey: string; ok: false; error: string };

/**
 * Waits until each queued run completes or fails for good (after its last attempt). A run whose
 * job is gone from the queue (a finished job trimmed by keepCompleted or keepFailed while others
 * were waited for) is told by its row in Postgres, as `claims` finds it by key.
 */
export async function waitForRuns(connection: ConnectionOptions, queues: Queues, claims: Pick<RunClaims, 'findByKey'>, runs: TickRun[], timeoutMs?: number): Promise<RunEnd[]> {
  const events = new QueueEvents(queues.names.sync, { connection, prefix: queues.prefix });
  try {
    await events.waitUntilReady();
    // One at a time: the runs proceed in parallel anyway, and each wait holds listeners on the queue.
    const deadline = timeoutMs === undefined ? undefined : Date.now() + timeoutMs;
    const ends: RunEnd[] = [];
    for (const run of runs) {
      const job = await queues.sync.getJob(run.runKey);
      if (!job) {
        ends.push(await endFromRow(claims, run.runKey, 'the job is no longer in the queue'));
        continue;
      }
      try {
        const result = (await job.waitUntilFinished(events, deadline === undefined ? undefined : Math.max(1, deadline - Date.now()))) as SyncJobResult;
        ends.push({ runKey: run.runKey, ok: true, result });
      } catch (error) {
        // Failed, timed out, or trimmed while waited for: the row says which, once the run has ended.
        ends.push(await endFromRow(claims, run.runKey, (error as Error).message));
      }
    }
    return ends;
  } finally {
    await events.close();
  }
}

/** How a run ended, by its row; `otherwise` when it has not ended (or has no row). */
async function endFromRow(claims: Pick<RunClaims, 'findByKey'>, runKey: string, otherwise: string): Promise<RunEnd> {
  const run = await claims.findByKey(runKey);
  if (run?.status === 'succeeded' || run?.status === 'partial') {
    return { runKey, ok: true, result: { runId: run.id, status: run.status, pages: run.pages, records: run.counts } };
  }
  if (run?.status === 'failed') return { runKey, ok: false, error: run.error ?? otherwise };
  return { runKey, ok: false, error: otherwise };
}
