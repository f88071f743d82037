/** Request timestamps kept per endpoint for `stats()`; older ones are dropped. */
export const KEPT_TIMESTAMPS = 10_000;
const WINDOW_MS = 1000;

export interface EndpointStats {
  count: number;
  /** Most requests seen in any sliding 1-second window. */
  maxPerSecond: number;
  /** Epoch ms of the first and last request, null before any. */
  firstAt: number | null;
  lastAt: number | null;
  /** Epoch ms of the latest requests (at most 10,000), oldest first. */
  timestamps: number[];
}

/**
 * Counts the requests one endpoint receives, so a test can check a client's global rate limit as
 * seen at the upstream. The sliding-window maximum keeps only the last second of arrivals.
 */
export class RequestStats {
  private count = 0;
  private maxPerSecond = 0;
  private firstAt: number | null = null;
  private lastAt: number | null = null;
  private readonly lastSecond: number[] = [];
  private lastSecondStart = 0;
  private readonly recent = new Float64Array(KEPT_TIMESTAMPS);

  record(nowMs: number): void {
    this.recent[this.count % KEPT_TIMESTAMPS] = nowMs;
    this.count++;
    this.firstAt ??= nowMs;
    this.lastAt = nowMs;
    this.lastSecond.push(nowMs);
    while (this.lastSecond[this.lastSecondStart]! <= nowMs - WINDOW_MS) this.lastSecondStart++;
    // Compact now and then instead of shifting on every request.
    if (this.lastSecondStart > 1024) {
      this.lastSecond.splice(0, this.lastSecondStart);
      this.lastSecondStart = 0;
    }
    this.maxPerSecond = Math.max(this.maxPerSecond, this.lastSecond.length - this.lastSecondStart);
  }

  snapshot(): EndpointStats {
    const kept = Math.min(this.count, KEPT_TIMESTAMPS);
    const timestamps: number[] = [];
    for (let i = this.count - kept; i < this.count; i++) timestamps.push(this.recent[i % KEPT_TIMESTAMPS]!);
    return { count: this.count, maxPerSecond: this.maxPerSecond, firstAt: this.firstAt, lastAt: this.lastAt, timestamps };
  }

  reset(): void {
    this.count = 0;
    this.maxPerSecond = 0;
    this.firstAt = null;
    this.lastAt = null;
    this.lastSecond.length = 0;
    this.lastSecondStart = 0;
  }
}
