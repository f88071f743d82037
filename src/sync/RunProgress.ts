import type { RecordAnomalies, RecordCounts } from '../storage/RecordCounts.js';
import type { SerialisedRecords } from '../storage/serialiseRecords.js';
import type { StoredPage } from '../storage/PageWrites.js';
import type { RunState } from '../storage/runState.js';
import { maxValue } from './RunCheckpoint.js';

/** Where a run stands after the pages this process stored: what its finish and notice report. */
export class RunProgress {
  pages: number;
  readonly counts: RecordCounts;
  readonly anomalies: RecordAnomalies;
  /** The highest incremental value stored so far (null: none yet, or not incremental). */
  cursorValue: string | null;
  private version: string;

  constructor(private readonly run: RunState) {
    this.pages = run.pages;
    this.counts = { ...run.counts };
    this.anomalies = { ...run.anomalies };
    this.cursorValue = run.cursorValue;
    this.version = run.version;
  }

  /** The cursor value to store with the next page, which holds records up to `highest`. */
  cursorWith(highest: string | null): string | null {
    return highest === null ? this.cursorValue : maxValue(this.cursorValue, highest);
  }

  pageStored(stored: StoredPage, records: SerialisedRecords, cursorValue: string | null): void {
    this.pages += 1;
    this.anomalies.skipped += records.invalid.length;
    this.anomalies.collapsed += records.collapsed;
    this.anomalies.nulsRemoved += records.nulsRemoved;
    this.anomalies.filtered += records.filtered;
    this.counts.new += stored.counts.new;
    this.counts.updated += stored.counts.updated;
    this.counts.unchanged += stored.counts.unchanged;
    this.cursorValue = cursorValue;
    this.version = stored.version;
  }

  get records(): number {
    return this.counts.new + this.counts.updated + this.counts.unchanged;
  }

  /** The run as it stands in storage now. */
  state(): RunState {
    return { ...this.run, pages: this.pages, counts: { ...this.counts }, anomalies: { ...this.anomalies }, cursorValue: this.cursorValue, version: this.version };
  }
}
