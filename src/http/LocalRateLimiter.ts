import type { RateWindow } from '../config/schema.js';
import type { Permit, RequestGate } from './RequestGate.js';
import { slotWait, type SlotWait } from './slotWait.js';

/** An in-process sliding-window limit: in every window, at most `max` requests in any `durationMs`. */
export class LocalRateLimiter implements RequestGate {
  /** Time each held or recent slot counts from; Infinity while its request is in flight. */
  private readonly slots: number[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  /** The wait of the request first in line, which a slot given back ends early. */
  private headWait: SlotWait | undefined;
  /** The longest window: a slot older than it counts in none. */
  private readonly longestMs: number;

  constructor(private readonly windows: readonly RateWindow[]) {
    this.longestMs = Math.max(...windows.map((window) => window.durationMs));
  }

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
      for (let i = this.slots.length - 1; i >= 0; i--) if (this.slots[i]! <= now - this.longestMs) this.slots.splice(i, 1);
      const waitMs = Math.max(0, ...this.windows.map((window) => this.waitIn(window, now)));
      if (waitMs === 0) {
        this.slots.push(Infinity);
        return this.permit(now - started);
      }
      this.headWait = slotWait(waitMs, signal);
      try {
        await this.headWait.ended;
      } finally {
        this.headWait = undefined;
      }
    }
  }

  /** How long until `window` has room for one more request (0: now); a slot in flight holds its place until released. */
  private waitIn(window: RateWindow, now: number): number {
    const counted = this.slots.filter((at) => at > now - window.durationMs).sort((a, b) => a - b);
    if (counted.length < window.max) return 0;
    // Room comes when the slots beyond max - 1 have left the window, the oldest first.
    const freeing = counted[counted.length - window.max]!;
    return Number.isFinite(freeing) ? freeing + window.durationMs - now : 10;
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
