import { randomUUID } from 'node:crypto';
import { findJob } from '../config/jobs/resolveQuery.js';
import type { Config, JobConfig } from '../config/schema.js';
import type { RunStore } from '../storage/runStore.js';
import type { RunIdentity, RunState } from '../storage/runs/runState.js';
import { REPLAY_START, type PagesToReplay } from '../storage/pages/ReplayReader.js';
import type { TickState } from '../storage/ticks/tickState.js';
import { replayQuery, type ReplayOptions, type ReplaySummary } from './replayQuery.js';
import { replayRunKey, replayTickKeyPrefix } from './runKeys.js';
import { inTickSpan } from '../observability/tracing/runSpans.js';

/** What to replay of a job: some of its queries (all by default), one fan-out value, runs since a time. */
export interface ReplayRequest {
  job: string;
  queryIndexes?: number[];
  value?: string;
  since?: Date;
}

export interface ReplayedJob {
  tick: TickState;
  /** Whether a replay of the same request that a crash stopped was taken up again. */
  resumed: boolean;
  summaries: ReplaySummary[];
}

export type ReplayJobOptions = ReplayOptions & { store: RunStore };

/**
 * Replays a job's stored pages into records: a tick (trigger `replay`) with a run per query that
 * has stored pages, each replayed to its end in this process. A replay of the same request left
 * running by a crash is resumed instead of started again. Undefined when no page is stored.
 */
export function replayJob(config: Config, request: ReplayRequest, options: ReplayJobOptions): Promise<ReplayedJob | undefined> {
  // A replay's tick is a trace too: its job notice's delivery continues it.
  return inTickSpan(request.job, 'replay', () => replayTick(config, request, options));
}

async function replayTick(config: Config, request: ReplayRequest, options: ReplayJobOptions): Promise<ReplayedJob | undefined> {
  const job = findJob(config, request.job);
  const indexes = request.queryIndexes ?? job.queries.map((_, index) => index);
  for (const index of indexes) if (!job.queries[index]) throw new Error(`job "${job.name}" has no query ${index} (it has ${job.queries.length}, numbered from 0)`);
  const prefix = replayTickKeyPrefix(job.name, JSON.stringify([indexes, request.value ?? null, request.since?.toISOString() ?? null]));
  const unfinished = await options.replayReader.unfinishedReplay(prefix);
  let runs: RunIdentity[];
  let tickId: string;
  if (unfinished.length > 0) {
    runs = unfinished.map(identityOf);
    tickId = unfinished[0]!.tickId!;
  } else {
    const stored: number[] = [];
    for (const index of indexes) if ((await options.replayReader.after(pagesOf(job, index, request), REPLAY_START, 1)).length > 0) stored.push(index);
    if (stored.length === 0) return undefined;
    tickId = randomUUID();
    runs = stored.map((index) => replayIdentity(job, index, request, tickId));
    const opened = await options.store.ticks.open({ id: tickId, tickKey: `${prefix}${tickId}`, job: job.name, trigger: 'replay', runs, skipped: 0 });
    if (!opened) throw new Error(`replay tick ${prefix}${tickId} exists already`);
  }
  const summaries: ReplaySummary[] = [];
  for (const identity of runs) summaries.push(await replayQuery(config, job, identity, pagesOf(job, identity.queryIndex, request), options));
  const tick = await options.store.ticks.find(tickId);
  return { tick: tick!, resumed: unfinished.length > 0, summaries };
}

function pagesOf(job: JobConfig, queryIndex: number, request: ReplayRequest): PagesToReplay {
  const mode = job.queries[queryIndex]?.mode ?? job.mode;
  return { job: job.name, queryIndex, value: request.value, since: request.since, latestRunOnly: mode === 'full_refresh' };
}

function replayIdentity(job: JobConfig, queryIndex: number, request: ReplayRequest, tickId: string): RunIdentity {
  const params: Record<string, string> = { replay: 'stored pages' };
  if (request.value !== undefined) params.value = request.value;
  if (request.since) params.since = request.since.toISOString();
  return {
    id: randomUUID(),
    runKey: replayRunKey(job.name, queryIndex, tickId),
    job: job.name,
    source: job.source,
    queryIndex,
    queryKey: `replay-${queryIndex}`,
    query: { q: null, params },
    tickId,
    value: request.value,
  };
}

function identityOf(run: RunState): RunIdentity {
  return { id: run.id, runKey: run.runKey, job: run.job, source: run.source, queryIndex: run.queryIndex, queryKey: run.queryKey, query: run.query, tickId: run.tickId ?? undefined, value: run.value ?? undefined };
}
