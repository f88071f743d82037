import type { RunStore } from '../../src/storage/runStore.js';

/**
 * A store whose finishes of anything but a failure reject with `message`, as when the worker dies
 * between a run's last page and its finish, or the finish cannot be written after an outage.
 */
export function finishingOnlyFailures(store: RunStore, message: string): RunStore {
  const finishes = Object.create(store.finishes) as RunStore['finishes'];
  finishes.finish = (runId, outcome, notice, known) => (outcome.status === 'failed' ? store.finishes.finish(runId, outcome, notice, known) : Promise.reject(new Error(message)));
  return { ...store, finishes };
}
