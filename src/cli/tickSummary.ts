import type { TickState } from '../storage/ticks/tickState.js';
import { printableLine } from './terminalText.js';

/** A tick's status as a person reads it: how far it is while it runs, how it went once ended. */
export function tickProgress(tick: Pick<TickState, 'status' | 'runs'>): string {
  return tick.status === 'running' ? `${tick.runs.done} of ${tick.runs.total} runs done` : tick.status;
}

/** One line on how a tick went (or stands): its runs by outcome and its records, those kept in dead_letters when there are any. */
export function tickSummary(tick: TickState): string {
  const { runs, records } = tick;
  const outcome = tick.status === 'running' ? `running, ${tickProgress(tick)}` : tick.status;
  const error = tick.error ? `; ${printableLine(tick.error)}` : '';
  return `${tick.job} tick ${tick.id}: ${outcome}; ${runs.total} runs: ${runs.succeeded} succeeded, ${runs.partial} partial, ${runs.failed} failed, ${runs.skipped} skipped; ${records.new} new, ${records.updated} updated, ${records.unchanged} unchanged${records.skipped > 0 ? `, ${records.skipped} skipped into dead_letters` : ''}${error}`;
}
