import { findJob, resolveQuery } from '../config/resolveQuery.js';
import type { Config } from '../config/schema.js';
import type { TickState } from '../storage/tickState.js';
import { planTick, type TickRequest } from './planTick.js';
import type { SourceRegistry } from './SourceRegistry.js';
import { recordOf, SyncInterruptedError } from './runFailures.js';
import { syncQuery, type RunSummary, type SyncQueryOptions } from './syncQuery.js';

export type RunJobOptions = Omit<SyncQueryOptions, 'client' | 'gate'> & { sources: SourceRegistry };

/** What `feedsync run` did: its tick and each run's summary. */
export interface JobRunNow {
  tick: TickState;
  summaries: RunSummary[];
}

/**
 * Runs a tick of a job (its queries, or one of them; each value of a fan-out query) now, in this
 * process, one run after another. The tick ends with its last run, as a queued tick does.
 */
export async function runJobNow(config: Config, jobName: string, only: Omit<TickRequest, 'trigger' | 'scheduledFor'>, options: RunJobOptions): Promise<JobRunNow> {
  const job = findJob(config, jobName);
  const plan = await planTick(config, job, options.store, { ...only, trigger: 'run' });
  const opened = await options.store.ticks.open(plan);
  if (!opened) throw new Error(`tick ${plan.tickKey} exists already`);
  const summaries: RunSummary[] = [];
  for (const identity of plan.runs) {
    if (options.signal?.aborted) {
      // Nothing resumes an in-process tick: its runs not started end failed, so that the tick ends too.
      const { kind, message } = recordOf(new SyncInterruptedError('interrupted before the run started'));
      await options.store.finishes.finish(identity.id!, { status: 'failed', errorKind: kind, error: message }, (run) => options.noticeFor?.(run));
      continue;
    }
    const query = resolveQuery(config, job, identity.queryIndex, identity.value);
    summaries.push(
      await syncQuery(query, identity, {
        ...options,
        client: options.sources.client(query.sourceName),
        gate: options.sources.gate(query.sourceName),
      }),
    );
  }
  return { tick: opened.tick, summaries };
}
