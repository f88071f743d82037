import type { Permit, RequestGate } from './RequestGate.js';
import { slotWait, type SlotWait } from './slotWait.js';

/** An in-process sliding-window limit: at most `max` requests in any `durationMs`. */
export class LocalRateLimiter implements RequestGate {
  /** Time each held or recent slot counts from; Infinity while its request is in flight. */
  private readonly slots: number[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  /** The wait of the request first in line, which a slot given back ends early. */
  private headWait: SlotWait | undefined;

  constructor(
    private readonly max: number,
    private readonly durationMs: number,
  ) {}

  acquire(signal?: AbortSignal): Promise<Permit> {
    const turn = this.queue.then(() => this.waitForSlot(signal));
    // One request's abort does not hold up those in line behind it.
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private async waitForSlot(signal: AbortSignal | undefined): Promise<Permit> {
    const started = Date.now();
    for (;;) {
      signal?.throwIfAborted();
      const now = Date.now();
      for (let i = this.slots.length - 1; i >= 0; i--) if (this.slots[i]! <= now - this.durationMs) this.slots.splice(i, 1);
      if (this.slots.length < this.max) {
        this.slots.push(Infinity);
        return this.permit(now - started);
      }
      const oldest = Math.min(...this.slots);
      this.headWait = slotWait(Number.isFinite(oldest) ? oldest + this.durationMs - now : 10, signal);
      try {
        await this.headWait.ended;
      } finally {
        this.headWait = undefined;
      }
    }
  }

  private permit(waitedMs: number): Permit {
    let settled = false;
    // In-flight slots are interchangeable, so any one of them takes the release time or is given back.
    // A permit settles once: the index of an in-flight slot the first time, -1 after.
    const inFlightSlotOnce = (): number => {
      if (settled) return -1;
      settled = true;
      return this.slots.indexOf(Infinity);
    };
    return {
      waitedMs,
      release: () => {
        const at = inFlightSlotOnce();
        if (at !== -1) this.slots[at] = Date.now();
      },
      giveBack: () => {
        const at = inFlightSlotOnce();
        if (at === -1) return;
        this.slots.splice(at, 1);
        this.headWait?.wake();
      },
    };
  }
}
