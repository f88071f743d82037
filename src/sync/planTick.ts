import { randomUUID } from 'node:crypto';
import { resolveQuery } from '../config/jobs/resolveQuery.js';
import { RECORD_KEY_FIELD } from '../config/jobs/forEachSchema.js';
import type { Config, JobConfig } from '../config/schema.js';
import type { RunStore } from '../storage/runStore.js';
import type { RunIdentity } from '../storage/runs/runState.js';
import type { TickPlan, TickTrigger } from '../storage/ticks/tickState.js';
import { runIdentityOf } from './runIdentity.js';
import { inProcessRunKey, manualTickKey, queuedRunKey, scheduledTickKey, tickRunKey } from './runKeys.js';

export interface TickRequest {
  trigger: Exclude<TickTrigger, 'replay'>;
  /** For a schedule's tick: the time it fired for, the same in every scheduler. */
  scheduledFor?: Date;
  /** Only this query (its index), not every query of the job. */
  queryIndex?: number;
  /** Only this value of the job's fan-out queries. */
  value?: string;
}

/** A request that cannot make a tick (a value for a job without fan-out): the caller's mistake. */
export class TickRequestError extends Error {
  override readonly name = 'TickRequestError';
}

/**
 * Plans a tick of a job: one run per query, or per value of a fan-out query (read now from the
 * config's list or from the stored records), each with its run key. A schedule's tick of a job
 * whose overlap policy is skip leaves out the queries whose previous run has not ended.
 */
export async function planTick(config: Config, job: JobConfig, store: Pick<RunStore, 'fanOut' | 'running'>, request: TickRequest): Promise<TickPlan> {
  const id = randomUUID();
  const scheduledFor = request.scheduledFor;
  const tickKey = request.trigger === 'schedule' ? scheduledTickKey(job.name, scheduledFor!) : manualTickKey(request.trigger, job.name, id);
  const plan: TickPlan = { id, tickKey, job: job.name, trigger: request.trigger, scheduledFor, runs: [], skipped: 0 };
  const indexes = request.queryIndex === undefined ? job.queries.map((_, index) => index) : [request.queryIndex];
  if (request.queryIndex !== undefined && !job.queries[request.queryIndex]) {
    throw new TickRequestError(`job "${job.name}" has no query ${request.queryIndex} (it has ${job.queries.length}, numbered from 0)`);
  }
  const fanning = indexes.filter((index) => job.queries[index]!.forEach);
  if (request.value !== undefined && fanning.length === 0) {
    throw new TickRequestError(`a value was given, but ${request.queryIndex === undefined ? `no query of job "${job.name}"` : `query ${request.queryIndex} of job "${job.name}"`} fans out (forEach)`);
  }
  for (const queryIndex of request.value === undefined ? indexes : fanning) {
    const values = request.value === undefined ? await valuesOf(config, job, queryIndex, store) : [request.value];
    if (typeof values === 'string') return { ...plan, runs: [], error: values };
    for (const value of values) plan.runs.push(identityOf(config, job, queryIndex, value, plan));
  }
  if (request.trigger === 'schedule' && job.overlap === 'skip') {
    const unfinished = await store.running.unfinishedQueries(job.name, [...new Set(plan.runs.map((run) => run.queryKey))]);
    const runs = plan.runs.filter((run) => !unfinished.has(run.queryKey));
    return { ...plan, runs, skipped: plan.runs.length - runs.length };
  }
  return plan;
}

/** A query's values: `[undefined]` for a query without fan-out; a message when they cannot be read. */
async function valuesOf(config: Config, job: JobConfig, queryIndex: number, store: Pick<RunStore, 'fanOut'>): Promise<(string | undefined)[] | string> {
  const forEach = job.queries[queryIndex]!.forEach;
  if (!forEach) return [undefined];
  if (forEach.values) return [...new Set(forEach.values)];
  const source = forEach.source ?? job.source;
  const field = forEach.field!;
  const found = await store.fanOut.of(source, forEach.kind!, field === RECORD_KEY_FIELD ? undefined : field);
  if (found.records > 0 && found.values.length === 0) {
    const where = `jobs[${config.jobs.indexOf(job)}].queries[${queryIndex}].forEach.field`;
    return `${where}: none of the ${found.records} stored records of kind "${forEach.kind}" (source "${source}") has a value at "${field}"`;
  }
  return found.values;
}

function identityOf(config: Config, job: JobConfig, queryIndex: number, value: string | undefined, plan: TickPlan): RunIdentity {
  const query = resolveQuery(config, job, queryIndex, value);
  const id = randomUUID();
  const runKey =
    plan.trigger === 'schedule'
      ? tickRunKey(job.name, queryIndex, plan.scheduledFor!, value)
      : (plan.trigger === 'enqueue' ? queuedRunKey : inProcessRunKey)(job.name, queryIndex, id);
  return runIdentityOf(query, runKey, { id, scheduledFor: plan.scheduledFor, tickId: plan.id });
}
