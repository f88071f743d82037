/** Admits one request at a time through a rate limit; `acquire` resolves when one may be sent. */
export interface RequestGate {
  /** Resolves with the milliseconds waited. */
  acquire(): Promise<number>;
}

export const OPEN_GATE: RequestGate = { acquire: () => Promise.resolve(0) };

/** An in-process sliding-window limit: at most `max` requests in any `durationMs`. */
export class LocalRateLimiter implements RequestGate {
  private readonly sent: number[] = [];
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly max: number,
    private readonly durationMs: number,
  ) {}

  acquire(): Promise<number> {
    const turn = this.queue.then(() => this.waitForSlot());
    this.queue = turn;
    return turn;
  }

  private async waitForSlot(): Promise<number> {
    const started = Date.now();
    for (;;) {
      const now = Date.now();
      while (this.sent.length > 0 && this.sent[0]! <= now - this.durationMs) this.sent.shift();
      if (this.sent.length < this.max) {
        this.sent.push(now);
        return now - started;
      }
      await new Promise((resolve) => setTimeout(resolve, this.sent[0]! + this.durationMs - now));
    }
  }
}
