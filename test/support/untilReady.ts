import type { ChildProcess } from 'node:child_process';
import { waitFor } from './waitFor.js';

/** Polls a worker's /readyz until it answers 200; fails if the worker exits first or takes longer than `timeoutMs`. */
export function untilReady(child: ChildProcess, readyUrl: string, timeoutMs?: number): Promise<true> {
  return waitFor(
    `the worker's ${readyUrl} to answer 200`,
    async () => {
      if (child.exitCode !== null) throw new Error(`the worker exited (code ${child.exitCode}) before it was ready`);
      return fetch(readyUrl).then((response) => response.status === 200, () => false);
    },
    timeoutMs,
  );
}
