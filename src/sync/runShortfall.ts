import type { PagingConfig } from '../config/schema.js';
import type { StopReason } from '../paging/Paginator.js';

/** Why a run's paging ended: the paginator's reason, or a result window it could not slide past. */
export type RunStopReason = StopReason | 'window_stuck';

/** How a run's paging ended, for telling whether it got everything. */
export interface PagingEnd {
  stopReason: RunStopReason;
  /** Why the window could not slide (stopReason `window_stuck`): which value filled it. */
  stuck?: string;
  /** The total the last page stored states, if it states one. */
  expectedTotal: number | undefined;
}

/** Why a run that ended by itself did not get everything: recorded as its `error_kind` and `error`, and it ends `partial`. */
export interface Shortfall {
  kind: 'max_pages' | 'window_stuck' | 'short_of_total';
  message: string;
}

/**
 * Whether a run that read `read` records (filtered, collapsed and skipped ones included) got
 * everything: not if it stopped at maxPages (checked last by the stop rules, so more pages may
 * exist) unless the stated total shows it read them all, nor at a stuck window, nor short of
 * the last page's stated total.
 */
export function shortfallOf(end: PagingEnd, read: number, paging: Pick<PagingConfig, 'maxPages' | 'window'>): Shortfall | undefined {
  if (end.stopReason === 'window_stuck') return { kind: 'window_stuck', message: `stopped at a result window it could not slide past: ${end.stuck}` };
  // A sliding window's totals are its current window's, which change as it slides.
  const total = paging.window ? undefined : end.expectedTotal;
  if (end.stopReason === 'max_pages' && (total === undefined || read < total)) {
    const of = total === undefined ? '; the upstream states no total, so more pages may exist' : ` of the ${total} the upstream states`;
    return { kind: 'max_pages', message: `stopped at paging.maxPages (${paging.maxPages}) after reading ${read} records${of}` };
  }
  if (total !== undefined && read < total) {
    return { kind: 'short_of_total', message: `read ${read} records, fewer than the ${total} the upstream's last page states (paging stopped: ${end.stopReason})` };
  }
  return undefined;
}
