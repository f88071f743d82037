import type { Config, JobConfig } from '../config/schema.js';
import type { OpenedTick } from '../storage/ticks/JobTicks.js';
import type { RunStore } from '../storage/runStore.js';
import { planTick, type TickRequest } from '../sync/planTick.js';
import { inTickSpan } from '../observability/tracing/runSpans.js';
import { queueOutboxDrain, type Queues, type SyncJobData } from './queues.js';

/** Jobs per `addBulk` (one Redis transaction each). */
const BULK = 500;

/**
 * Starts a tick of a job: plans its runs (one per query, or per fan-out value), opens the tick
 * with its runs in Postgres, then queues them in bulk, a round trip per BULK runs. A crash between
 * the two leaves queued runs without a queue job, which the RunReconciler queues again. Returns
 * undefined when the tick had been started already (by another scheduler).
 */
export function launchTick(config: Config, store: Pick<RunStore, 'ticks' | 'fanOut' | 'running'>, queues: Queues, job: JobConfig, request: TickRequest): Promise<OpenedTick | undefined> {
  // The tick's trace: its runs' spans continue it across the queue.
  return inTickSpan(job.name, request.trigger, () => openAndQueue(config, store, queues, job, request));
}

async function openAndQueue(config: Config, store: Pick<RunStore, 'ticks' | 'fanOut' | 'running'>, queues: Queues, job: JobConfig, request: TickRequest): Promise<OpenedTick | undefined> {
  const plan = await planTick(config, job, store, request);
  const opened = await store.ticks.open(plan);
  if (!opened) return undefined;
  const scheduledFor = plan.scheduledFor?.toISOString();
  try {
    for (let first = 0; first < opened.runs.length; first += BULK) {
      await queues.sync.addBulk(
        opened.runs.slice(first, first + BULK).map((run) => {
          const data: SyncJobData = { job: job.name, queryIndex: run.queryIndex, runKey: run.runKey, runId: run.runId, tickId: opened.tick.id };
          if (run.value !== undefined) data.value = run.value;
          if (scheduledFor) data.scheduledFor = scheduledFor;
          return { name: 'sync', data, opts: { jobId: run.runKey } };
        }),
      );
    }
  } catch (error) {
    // The tick is committed: its runs are not lost, and the message says where they wait.
    throw new Error(
      `Redis refused the queue jobs of tick ${opened.tick.id} of job "${job.name}" (${(error as Error).message}); its runs wait in Postgres as queued, and a worker's reconciler queues them once Redis takes them (after worker.reconcileAfterMs)`,
      { cause: error },
    );
  }
  // A tick with nothing to run ended as it opened: its notice is due now.
  if (opened.tick.status !== 'running' && config.webhook) await queueOutboxDrain(queues);
  return opened;
}
