import type { TickState } from './tickState.js';

/** Who wants to know when ticks end (a notice to deliver): told after the transaction that ended them commits. */
export class TickEndListeners {
  private readonly listeners: ((ticks: readonly TickState[]) => void)[] = [];

  add(listener: (ticks: readonly TickState[]) => void): void {
    this.listeners.push(listener);
  }

  notify(ticks: readonly TickState[]): void {
    if (ticks.length === 0) return;
    for (const listener of this.listeners) listener(ticks);
  }
}
