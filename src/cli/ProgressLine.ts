import type { SyncProgress } from '../sync/syncQuery.js';

/** A live one-line progress display on a TTY: pages, records and records/s of the current run. */
export class ProgressLine {
  private started = performance.now();
  private lastDraw = 0;

  constructor(private readonly stream: NodeJS.WriteStream = process.stderr) {}

  get enabled(): boolean {
    return this.stream.isTTY;
  }

  begin(label: string): void {
    this.started = performance.now();
    if (this.enabled) this.stream.write(`${label}\n`);
  }

  update(progress: SyncProgress): void {
    const now = performance.now();
    if (!this.enabled || now - this.lastDraw < 100) return;
    this.lastDraw = now;
    const rate = progress.records / Math.max((now - this.started) / 1000, 0.001);
    const total = progress.expectedTotal ? ` of ${progress.expectedTotal}` : '';
    this.stream.write(`\r  pages ${progress.pages}  records ${progress.records}${total}  ${Math.round(rate)} records/s   `);
  }

  end(): void {
    if (this.enabled) this.stream.write('\n');
  }
}
