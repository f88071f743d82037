import type { TickState } from '../storage/tickState.js';
import { printableLine } from './terminalText.js';

/** One line on how a tick went (or stands): its runs by outcome and its records. */
export function tickSummary(tick: TickState): string {
  const { runs, records } = tick;
  const outcome = tick.status === 'running' ? `running, ${runs.done} of ${runs.total} runs done` : tick.status;
  const error = tick.error ? `; ${printableLine(tick.error)}` : '';
  return `${tick.job} tick ${tick.id}: ${outcome}; ${runs.total} runs: ${runs.succeeded} succeeded, ${runs.failed} failed, ${runs.skipped} skipped; ${records.new} new, ${records.updated} updated, ${records.unchanged} unchanged${error}`;
}
