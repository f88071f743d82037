/**
 * The head advances one block every `blockIntervalMs` after the start, so a client syncing to the
 * head keeps finding new blocks; 0 freezes it at the initial head (handy for tests).
 */
export class ChainHead {
  constructor(
    private readonly initialHead: number,
    private readonly blockIntervalMs: number,
    private readonly startedAtMs: number,
  ) {}

  at(nowMs: number): number {
    if (this.blockIntervalMs <= 0) return this.initialHead;
    return this.initialHead + Math.max(0, Math.floor((nowMs - this.startedAtMs) / this.blockIntervalMs));
  }
}
