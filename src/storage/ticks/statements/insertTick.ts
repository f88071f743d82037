import { NamedStatement } from '../../database/NamedStatement.js';
import { TICK_COLUMNS } from '../tickState.js';

export interface InsertTickParams {
  id: string;
  tickKey: string;
  job: string;
  trigger: string;
  scheduledFor: Date | null;
  runsTotal: number;
  runsSkipped: number;
  error: string | null;
  /** The tick's span's W3C trace context (see job_ticks.traceparent). */
  traceparent: string | null;
}

/**
 * Opens a tick, its skipped runs counted as done; returns nothing when a tick with this key exists
 * (another scheduler fired it first).
 */
export const insertTick = new NamedStatement<InsertTickParams>(
  'feedsync_insert_tick_v2',
  `insert into job_ticks (id, tick_key, job, trigger, scheduled_for, runs_total, runs_done, runs_skipped, error, traceparent)
    values (:id::uuid, :tickKey::text, :job::text, :trigger::text, :scheduledFor::timestamptz, :runsTotal::int, :runsSkipped::int, :runsSkipped::int, :error::text, :traceparent::text)
    on conflict (tick_key) do nothing
    returning ${TICK_COLUMNS}`,
);
