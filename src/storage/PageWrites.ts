import type pg from 'pg';
import { countsOf, type RecordCounts } from './RecordCounts.js';
import { withoutNulEscapes } from './nulChars.js';
import type { SerialisedRecords } from './serialiseRecords.js';
import type { PageWriteMode } from './writeModes.js';
import type { PageWriteParams } from './statements/pageWriteParts.js';
import { storePageLookingUpUnchanged, storePageOfNewRecords, type StorePageRow } from './statements/storePage.js';
import { storeUnchangedPage, type StoreUnchangedPageRow } from './statements/storeUnchangedPage.js';

/** A page's envelope as stored: the body as received and what was read from it. */
export interface PageEnvelope {
  requestUrl: string;
  raw: string;
  status: string;
  message: string;
  bytes: number;
  contentHash: string;
  /** From the request sent to the body read, in ms. */
  latencyMs: number;
}

/** A fetched page ready to store: its envelope and its selected records. */
export interface PageToStore extends PageEnvelope {
  kind: string;
  /** The page's records, serialised and hashed (see serialiseRecords). */
  records: SerialisedRecords;
  /** Where the run stands after this page: stored with it. */
  checkpoint: unknown;
  cursorValue: string | null;
  /** What the query's write mode adds to storing its records (see pageWriteMode). */
  writeMode: PageWriteMode;
}

/** What storing a page did: its records' counts, and the run row's new version. */
export interface StoredPage {
  counts: RecordCounts;
  version: string;
}

/** Another process stored a page of this run first (a stalled job picked up twice). */
export class RunTakenOverError extends Error {
  override readonly name = 'RunTakenOverError';
}

/** Runs whose pages are remembered (whether the last one held unchanged records) at most; past it the memory starts again. */
const REMEMBERED_RUNS = 10_000;

/**
 * Stores a run's pages: each page, its records and the run's checkpoint atomically, in one
 * statement (so one round trip). The checkpoint only moves from the page count the page was
 * fetched at, so two processes on one run cannot both store a page.
 *
 * A page is taken to be like the run's previous one. After a page of only new or changed
 * records (a first sync), the lookup of unchanged ones is skipped. After a page with unchanged
 * records (a re-sync), the page is first offered without its payloads, which an unchanged page
 * does not need; if a record did change, that offer writes nothing and the page is stored with
 * them. Every way stores the same.
 */
export class PageWrites {
  /** Per run being stored here: whether its last page held unchanged records. */
  private readonly lastPageHadUnchanged = new Map<string, boolean>();

  constructor(private readonly pool: Pick<pg.Pool, 'query'>) {}

  async storePage(runId: string, pagesBefore: number, page: PageToStore, source: string): Promise<StoredPage> {
    const { records } = page;
    const params: PageWriteParams = {
      runId,
      pagesBefore,
      source,
      kind: page.kind,
      keys: records.keys,
      hashes: records.hashes,
      checkpoint: page.checkpoint === undefined ? null : withoutNulEscapes(JSON.stringify(page.checkpoint)),
      cursorValue: page.cursorValue,
      requestUrl: page.requestUrl,
      status: page.status,
      message: page.message,
      body: page.raw,
      bytes: page.bytes,
      contentHash: page.contentHash,
      latencyMs: Math.round(page.latencyMs),
      // Records Postgres cannot take reach here only when the query keeps them as dead letters.
      deadIndexes: records.invalid.map((record) => record.index),
      // Text cannot hold U+0000: a key that did (one reason a record is here) keeps its place with U+FFFD.
      deadKeys: records.invalid.map((record) => record.key.replaceAll('\u0000', '\ufffd')),
      deadReasons: records.invalid.map((record) => record.reason),
      deadRaws: records.invalid.map((record) => record.raw),
      collapsed: records.collapsed,
      nulsRemoved: records.nulsRemoved,
      filtered: records.filtered,
      refreshScope: page.writeMode.refreshScope,
      keepHistory: page.writeMode.keepHistory,
    };
    const lastHadUnchanged = this.lastPageHadUnchanged.get(runId);
    if (lastHadUnchanged === true) {
      const { rows } = await this.pool.query<StoreUnchangedPageRow>(storeUnchangedPage.with(params));
      const row = rows[0];
      if (!row?.claimed) throw takenOver(runId, pagesBefore);
      if (row.version) return { counts: { new: 0, updated: 0, unchanged: records.keys.length }, version: row.version };
    }
    const statement = lastHadUnchanged === false ? storePageOfNewRecords : storePageLookingUpUnchanged;
    const { rows } = await this.pool.query<StorePageRow>(statement.with({ ...params, payloads: records.payloads }));
    const row = rows[0];
    if (!row?.version) throw takenOver(runId, pagesBefore);
    const counts = countsOf(records.keys.length, row);
    if (this.lastPageHadUnchanged.size >= REMEMBERED_RUNS) this.lastPageHadUnchanged.clear();
    if (records.keys.length > 0) this.lastPageHadUnchanged.set(runId, counts.unchanged > 0);
    return { counts, version: row.version };
  }

  /** Forgets a run that ended. */
  forget(runId: string): void {
    this.lastPageHadUnchanged.delete(runId);
  }
}

function takenOver(runId: string, pagesBefore: number): RunTakenOverError {
  return new RunTakenOverError(`run ${runId} moved past page ${pagesBefore} in another process`);
}
