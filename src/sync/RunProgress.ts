import type { RecordAnomalies, RecordCounts } from '../storage/records/recordCounts.js';
import type { StoredPage } from '../storage/pages/PageWrites.js';
import type { RunState } from '../storage/runs/runState.js';
import { keepsAscending, type PageOrder } from './incrementalOrder.js';
import { maxValue, type RunCheckpoint } from './runCheckpoint.js';

/** Where a run stands after the pages this process stored: what its finish and notice report. */
export class RunProgress {
  pages: number;
  readonly counts: RecordCounts;
  readonly anomalies: RecordAnomalies;
  /** The highest incremental value stored so far (null: none yet, or not incremental). */
  cursorValue: string | null;
  /** Whether every incremental value stored so far was ≥ those stored before it. */
  ascending: boolean;
  /** Records a full_refresh sweep marked deleted. */
  recordsDeleted: number;
  private version: string;

  constructor(private readonly run: RunState) {
    this.pages = run.pages;
    this.counts = { ...run.counts };
    this.anomalies = { ...run.anomalies };
    this.cursorValue = run.cursorValue;
    this.ascending = (run.checkpoint as RunCheckpoint | null)?.outOfOrder !== true;
    this.recordsDeleted = run.recordsDeleted;
    this.version = run.version;
  }

  /** A full_refresh sweep left the run row counting `recordsDeleted` records marked deleted, at `version`. */
  swept(recordsDeleted: number, version: string): void {
    this.recordsDeleted = recordsDeleted;
    this.version = version;
  }

  /** The cursor value to store with the next page, which holds records up to `highest`. */
  cursorWith(highest: string | null): string | null {
    return highest === null ? this.cursorValue : maxValue(this.cursorValue, highest);
  }

  /** Whether the run's values stay ascending with a page whose values run as `order`. */
  ascendingWith(order: PageOrder | null): boolean {
    return this.ascending && (order === null || keepsAscending(this.cursorValue, order));
  }

  /** A page was stored; one proven unchanged (no records at hand) had no anomalies, or it would have kept no proof. */
  pageStored(stored: StoredPage, cursorValue: string | null, ascending: boolean): void {
    this.pages += 1;
    const { records } = stored;
    if (records) {
      this.anomalies.skipped += records.invalid.length;
      this.anomalies.collapsed += records.collapsed;
      this.anomalies.nulsRemoved += records.nulsRemoved;
      this.anomalies.filtered += records.filtered;
    }
    this.counts.new += stored.counts.new;
    this.counts.updated += stored.counts.updated;
    this.counts.unchanged += stored.counts.unchanged;
    this.cursorValue = cursorValue;
    this.ascending = ascending;
    this.version = stored.version;
  }

  get records(): number {
    return this.counts.new + this.counts.updated + this.counts.unchanged;
  }

  /** Records read from the upstream: those stored and those left out (skipped, collapsed, filtered). */
  get read(): number {
    return this.records + this.anomalies.skipped + this.anomalies.collapsed + this.anomalies.filtered;
  }

  /** The run as it stands in storage now. */
  state(): RunState {
    return { ...this.run, pages: this.pages, counts: { ...this.counts }, anomalies: { ...this.anomalies }, recordsDeleted: this.recordsDeleted, cursorValue: this.cursorValue, version: this.version };
  }
}
