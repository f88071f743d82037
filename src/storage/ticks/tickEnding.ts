import type { NoticeToQueue } from '../runs/runState.js';
import { countTickRuns } from './statements/countTickRuns.js';
import { endTicks } from './statements/endTicks.js';
import { insertTickNotice } from './statements/insertTickNotice.js';
import { readTickFailures, type TickFailureRow } from './statements/readTickFailures.js';
import { endedTickStatus, tickStateOf, type TickOutcome, type TickRow, type TickState } from './tickState.js';
import type pg from 'pg';
import { inTransaction, type TransactionClient } from '../database/transaction.js';

/** Makes a tick's notice from its outcome; absent when job notices are not posted. */
export type TickNoticeFor = (tick: TickOutcome) => NoticeToQueue;

/** Failed runs a tick's notice lists by name; the rest are counted. */
export const LISTED_FAILED_RUNS = 100;

/**
 * Counts the ended runs of these ticks not counted yet (see countTickRuns), then ends each tick
 * whose last run this was, with its notice, in a transaction of its own: a tick ends exactly once
 * (endTicks ends only a running one), whichever process counts its last run. Returns the ticks it
 * ended.
 */
export async function countEndedRuns(pool: Pick<pg.Pool, 'query' | 'connect'>, tickIds: Iterable<string>, tickNoticeFor: TickNoticeFor | undefined): Promise<TickState[]> {
  const ticks = [...new Set(tickIds)];
  if (ticks.length === 0) return [];
  const { rows } = await pool.query<TickRow>(countTickRuns.with({ tickIds: ticks }));
  return endCountedTicks(pool, rows.map(tickStateOf), tickNoticeFor);
}

/** Ends ticks found with every run counted, with their notices, in one transaction. */
export function endCountedTicks(pool: Pick<pg.Pool, 'query' | 'connect'>, ticks: readonly TickState[], tickNoticeFor: TickNoticeFor | undefined): Promise<TickState[]> {
  if (ticks.length === 0) return Promise.resolve([]);
  return inTransaction(pool, (client) => endTicksNow(client, ticks, tickNoticeFor));
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
