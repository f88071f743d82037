import { QueueEvents, type ConnectionOptions } from 'bullmq';
import { findJob } from '../config/resolveQuery.js';
import type { Config } from '../config/schema.js';
import { manualRunIdentity } from '../sync/runJobNow.js';
import { queuedRunKey } from '../sync/runKeys.js';
import { SYNC_QUEUE, type Queues } from './queues.js';
import type { SyncJobResult } from './SyncWorker.js';

export interface EnqueuedRun {
  runId: string;
  runKey: string;
  queryIndex: number;
}

/** Jobs per `addBulk` (one Redis transaction each). */
const BULK = 500;

/** "Sync now": queues a job's queries (or one) for any worker, each with a fresh run id. */
export async function enqueueRuns(config: Config, queues: Queues, jobName: string, queryIndex?: number): Promise<EnqueuedRun[]> {
  const job = findJob(config, jobName);
  const indexes = queryIndex === undefined ? job.queries.map((_, index) => index) : [queryIndex];
  const runs = indexes.map((index): EnqueuedRun => {
    const identity = manualRunIdentity(config, jobName, index, queuedRunKey);
    return { runId: identity.id!, runKey: identity.runKey, queryIndex: index };
  });
  // In bulk: one round trip per BULK runs rather than one per run (a job with many queries).
  for (let first = 0; first < runs.length; first += BULK) {
    await queues.sync.addBulk(
      runs.slice(first, first + BULK).map((run) => ({
        name: 'sync',
        data: { job: jobName, queryIndex: run.queryIndex, runKey: run.runKey, runId: run.runId },
        opts: { jobId: run.runKey },
      })),
    );
  }
  return runs;
}

export type RunEnd = { runKey: string; ok: true; result: SyncJobResult } | { runKey: string; ok: false; error: string };

/** Waits until each queued run completes or fails for good (after its last attempt). */
export async function waitForRuns(connection: ConnectionOptions, queues: Queues, runs: EnqueuedRun[], timeoutMs?: number): Promise<RunEnd[]> {
  const events = new QueueEvents(SYNC_QUEUE, { connection, prefix: queues.prefix });
  try {
    await events.waitUntilReady();
    // One at a time: the runs proceed in parallel anyway, and each wait holds listeners on the queue.
    const deadline = timeoutMs === undefined ? undefined : Date.now() + timeoutMs;
    const ends: RunEnd[] = [];
    for (const run of runs) {
      const job = await queues.sync.getJob(run.runKey);
      if (!job) {
        ends.push({ runKey: run.runKey, ok: false, error: 'the job is no longer in the queue' });
        continue;
      }
      try {
        const result = (await job.waitUntilFinished(events, deadline === undefined ? undefined : Math.max(1, deadline - Date.now()))) as SyncJobResult;
        ends.push({ runKey: run.runKey, ok: true, result });
      } catch (error) {
        ends.push({ runKey: run.runKey, ok: false, error: (error as Error).message });
      }
    }
    return ends;
  } finally {
    await events.close();
  }
}
