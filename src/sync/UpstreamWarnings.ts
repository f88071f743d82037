import type { Logger } from '../observability/logger.js';
import type { RunStore } from '../storage/runStore.js';

/**
 * What the upstream said beside the data it sent during a run (see warningOf): each warning
 * logged the first time it comes, and kept on the run before it finishes, so that its history
 * page and its notice carry it. The run still gets everything.
 */
export class UpstreamWarnings {
  private readonly seen = new Set<string>();
  private readonly unkept: string[] = [];

  constructor(private readonly log: Logger) {}

  add(warning: string): void {
    if (this.seen.has(warning)) return;
    this.seen.add(warning);
    this.unkept.push(warning);
    this.log.warn({ warning }, 'the upstream sent the data with a warning');
  }

  /** Writes those not kept yet onto the run. */
  async keep(store: Pick<RunStore, 'warnings'>, runId: string): Promise<void> {
    while (this.unkept.length > 0) await store.warnings.add(runId, this.unkept[0]!).then(() => this.unkept.shift());
  }
}
