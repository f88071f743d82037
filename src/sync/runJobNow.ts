import { findJob, resolveQuery } from '../config/jobs/resolveQuery.js';
import type { Config, JobConfig } from '../config/schema.js';
import { RunTakenOverError } from '../storage/pages/PageWrites.js';
import type { RunIdentity } from '../storage/runs/runState.js';
import { waitOutStorageOutage } from '../storage/database/storageOutage.js';
import type { TickState } from '../storage/ticks/tickState.js';
import { planTick, type TickRequest } from './planTick.js';
import type { SourceRegistry } from './SourceRegistry.js';
import { recordOf, SyncInterruptedError } from './runFailures.js';
import { syncQuery, type RunSummary, type SyncQueryOptions } from './syncQuery.js';
import { inTickSpan } from '../observability/tracing/runSpans.js';

export type RunJobOptions = Omit<SyncQueryOptions, 'client' | 'gate'> & { sources: SourceRegistry };

/** What `feedsync run` did: its tick and each run's summary. */
export interface JobRunNow {
  tick: TickState;
  summaries: RunSummary[];
}

/** Times a run of this process resumes after finding its row moved, before that is an error. */
const RESUMES_AFTER_TAKE_OVER = 3;

/**
 * Runs a tick of a job (its queries, or one of them; each value of a fan-out query) now, in this
 * process, one run after another. The tick ends with its last run, as a queued tick does.
 * Nothing resumes an in-process tick: a run it cannot carry on ends failed, and so do the runs
 * after it, so that the tick ends too, with its notice.
 */
export function runJobNow(config: Config, jobName: string, only: Omit<TickRequest, 'trigger' | 'scheduledFor'>, options: RunJobOptions): Promise<JobRunNow> {
  const job = findJob(config, jobName);
  // The tick's trace: its runs' spans are its children here, in this process.
  return inTickSpan(job.name, 'run', () => openAndRunTick(config, job, only, options));
}

async function openAndRunTick(config: Config, job: JobConfig, only: Omit<TickRequest, 'trigger' | 'scheduledFor'>, options: RunJobOptions): Promise<JobRunNow> {
  const plan = await planTick(config, job, options.store, { ...only, trigger: 'run' });
  const opened = await options.store.ticks.open(plan);
  if (!opened) throw new Error(`tick ${plan.tickKey} exists already`);
  // While this process runs the tick: if it is killed, a worker's reconciler closes what it left.
  const release = await options.store.ticks.holdInProcess(opened.tick.id, options.logger);
  try {
    return { tick: opened.tick, summaries: await runTick(config, job, plan.runs, options) };
  } finally {
    await release();
  }
}

async function runTick(config: Config, job: JobConfig, runs: readonly RunIdentity[], options: RunJobOptions): Promise<RunSummary[]> {
  const summaries: RunSummary[] = [];
  for (const [at, identity] of runs.entries()) {
    if (options.signal?.aborted) {
      await failRuns([identity], new SyncInterruptedError('interrupted before the run started'), options);
      continue;
    }
    const query = resolveQuery(config, job, identity.queryIndex, identity.value);
    const run = () => syncQuery(query, identity, { ...options, client: options.sources.client(query.sourceName), gate: options.sources.gate(query.sourceName) });
    try {
      summaries.push(await resumingTakeOvers(run));
    } catch (error) {
      await failRuns(runs.slice(at), error, options).catch((failure: unknown) => {
        options.logger.error({ err: { message: (failure as Error).message } }, 'could not record the runs of this tick as failed; they stay unfinished');
      });
      throw error;
    }
  }
  return summaries;
}

/**
 * Runs a run; if its row moved meanwhile, runs it again from its checkpoint. No other process
 * runs this process's runs: the row moved because this process's own page write committed as
 * its connection dropped.
 */
async function resumingTakeOvers(run: () => Promise<RunSummary>): Promise<RunSummary> {
  for (let resumes = 0; ; resumes++) {
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof RunTakenOverError) || resumes >= RESUMES_AFTER_TAKE_OVER) throw error;
    }
  }
}

/**
 * Records these runs as failed for `error`, with their notices (a run ended already stays as it
 * is), waiting out a database outage as a run's own steps do.
 */
async function failRuns(runs: readonly RunIdentity[], error: unknown, options: RunJobOptions): Promise<void> {
  const { kind, message } = recordOf(error instanceof Error ? error : new Error(String(error)));
  for (const identity of runs) {
    const fail = () => options.store.finishes.finish(identity.id!, { status: 'failed', errorKind: kind, error: message }, (run) => options.noticeFor?.(run));
    await waitOutStorageOutage(fail, { maxWaitMs: options.databaseOutageMs ?? 0 });
  }
}
