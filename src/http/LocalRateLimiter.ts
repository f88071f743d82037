import type { Permit, RequestGate } from './RequestGate.js';

/** An in-process sliding-window limit: at most `max` requests in any `durationMs`. */
export class LocalRateLimiter implements RequestGate {
  /** Time each held or recent slot counts from; Infinity while its request is in flight. */
  private readonly slots: number[] = [];
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly max: number,
    private readonly durationMs: number,
  ) {}

  acquire(): Promise<Permit> {
    const turn = this.queue.then(() => this.waitForSlot());
    this.queue = turn;
    return turn;
  }

  private async waitForSlot(): Promise<Permit> {
    const started = Date.now();
    for (;;) {
      const now = Date.now();
      for (let i = this.slots.length - 1; i >= 0; i--) if (this.slots[i]! <= now - this.durationMs) this.slots.splice(i, 1);
      if (this.slots.length < this.max) {
        this.slots.push(Infinity);
        let released = false;
        return {
          waitedMs: now - started,
          // In-flight slots are interchangeable, so any one of them takes the release time.
          release: () => {
            if (released) return;
            released = true;
            const at = this.slots.indexOf(Infinity);
            if (at !== -1) this.slots[at] = Date.now();
          },
        };
      }
      const oldest = Math.min(...this.slots);
      await new Promise((resolve) => setTimeout(resolve, Number.isFinite(oldest) ? oldest + this.durationMs - now : 10));
    }
  }
}
