import { columnsOf } from '../database/columnsOf.js';
import type { RecordCounts } from '../records/recordCounts.js';
import type { NoticeToQueue } from '../runs/runState.js';
import { countTickRuns, type CountTickRunsParams } from './statements/countTickRuns.js';
import { endTicks } from './statements/endTicks.js';
import { insertTickNotice } from './statements/insertTickNotice.js';
import { readTickFailures, type TickFailureRow } from './statements/readTickFailures.js';
import { endedTickStatus, tickStateOf, type TickOutcome, type TickRow, type TickState } from './tickState.js';
import type { TransactionClient } from '../database/transaction.js';

/** Makes a tick's notice from its outcome; absent when job notices are not posted. */
export type TickNoticeFor = (tick: TickOutcome) => NoticeToQueue;

/** Failed runs a tick's notice lists by name; the rest are counted. */
export const LISTED_FAILED_RUNS = 100;

/** A run of a tick that has just ended for good. */
export interface EndedTickRun {
  tickId: string;
  status: 'succeeded' | 'partial' | 'failed';
  counts: RecordCounts;
  /** Its records kept in dead_letters (records.onInvalid: skip). */
  skipped: number;
}

/** The runs of one tick that just ended, by outcome, and their records. */
type EndedRunsOfTick = Record<EndedTickRun['status'], number> & { counts: RecordCounts; skipped: number };

/**
 * Counts runs that just ended to their ticks, ends each tick whose last run this was, and queues
 * its notice: on the transaction that ends the runs, so a tick ends exactly once, with its last
 * run, whichever process ends it. Returns the ticks it ended.
 */
export async function countEndedRuns(client: TransactionClient, ended: readonly EndedTickRun[], tickNoticeFor: TickNoticeFor | undefined): Promise<TickState[]> {
  const byTick = new Map<string, EndedRunsOfTick>();
  for (const run of ended) {
    const tick = byTick.get(run.tickId) ?? { succeeded: 0, partial: 0, failed: 0, counts: { new: 0, updated: 0, unchanged: 0 }, skipped: 0 };
    tick[run.status] += 1;
    tick.counts.new += run.counts.new;
    tick.counts.updated += run.counts.updated;
    tick.counts.unchanged += run.counts.unchanged;
    tick.skipped += run.skipped;
    byTick.set(run.tickId, tick);
  }
  if (byTick.size === 0) return [];
  const params = columnsOf<[string, EndedRunsOfTick], CountTickRunsParams>([...byTick], ([tickId, tick]) => ({
    tickIds: tickId,
    succeeded: tick.succeeded,
    partial: tick.partial,
    failed: tick.failed,
    recordsNew: tick.counts.new,
    recordsUpdated: tick.counts.updated,
    recordsUnchanged: tick.counts.unchanged,
    recordsSkipped: tick.skipped,
  }));
  const { rows } = await client.query<TickRow>(countTickRuns.with(params));
  return endTicksNow(client, rows.map(tickStateOf), tickNoticeFor);
}

/** Ends ticks every run of which has ended, each with how it went, and queues their notices. */
export async function endTicksNow(client: TransactionClient, ticks: readonly TickState[], tickNoticeFor: TickNoticeFor | undefined): Promise<TickState[]> {
  if (ticks.length === 0) return [];
  const statuses = ticks.map((tick) => endedTickStatus(tick.runs, tick.error));
  const { rows } = await client.query<TickRow>(endTicks.with({ tickIds: ticks.map((tick) => tick.id), statuses }));
  const endedTicks = rows.map(tickStateOf);
  if (tickNoticeFor) {
    for (const tick of endedTicks) {
      const notice = tickNoticeFor(await outcomeOf(client, tick));
      await client.query(insertTickNotice.with({ id: notice.id, tickId: tick.id, type: notice.type, body: notice.body }));
    }
  }
  return endedTicks;
}

async function outcomeOf(client: TransactionClient, tick: TickState): Promise<TickOutcome> {
  const failed = tick.runs.failed === 0 ? [] : (await client.query<TickFailureRow>(readTickFailures.with({ tickId: tick.id, limit: LISTED_FAILED_RUNS }))).rows;
  return {
    ...tick,
    failedRuns: failed.map((row) => ({ runId: row.id, queryIndex: row.query_index, value: row.fan_value, q: row.q, errorKind: row.error_kind, error: row.error })),
    failedRunsNotListed: tick.runs.failed - failed.length,
  };
}
