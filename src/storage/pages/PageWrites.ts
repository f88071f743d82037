import type pg from 'pg';
import { FOREIGN_KEY_VIOLATION, isViolationOf, UNIQUE_VIOLATION } from '../database/databaseError.js';
import type { NamedStatement, PreparedQuery } from '../database/NamedStatement.js';
import { countsOf, type RecordCounts } from '../records/recordCounts.js';
import { pageWriteParams, provenPageParams } from './pageStatementParams.js';
import type { SerialisedRecords } from '../records/serialiseRecords.js';
import type { PageWriteMode } from './writeModes.js';
import { ENVELOPE_BODY_KEY, type PageWriteParams } from './statements/pageWriteParts.js';
import {
  RECORDS_PRIMARY_KEY,
  storePageInsertingRecords,
  storePageLookingUpUnchanged,
  storePageUpsertingRecords,
  type StorePageParams,
  type StorePageRow,
} from './statements/storePage.js';
import { takeVersionsLock, type VersionsLockParams } from './statements/takeVersionsLock.js';
import type { ChangeHorizons } from '../records/ChangeHorizons.js';
import { inTransaction } from '../database/transaction.js';
import { storeProvenPage, type StoreProvenPageRow } from './statements/storeProvenPage.js';
import { storeUnchangedPage, type StoreUnchangedPageRow } from './statements/storeUnchangedPage.js';
import { fastPathOn } from '../../config/fastPaths.js';

/** A page's envelope as stored: the body as received and what was read from it. */
export interface PageEnvelope {
  requestUrl: string;
  /** The body: its bytes as received, or its text (see FetchedPage.raw). */
  raw: Buffer | string;
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
  /**
   * The page's records, serialised and hashed (see serialiseRecords); or how to get them when
   * needed: a page whose records are proven stored unchanged never needs them.
   */
  records: SerialisedRecords | (() => SerialisedRecords);
  /** The fingerprint of how the records are derived from the body (see recordsDerivation); null: no proof is kept or used. */
  derivation: string | null;
  /** Where the run stands after this page: stored with it. */
  checkpoint: unknown;
  cursorValue: string | null;
  /** What the query's write mode adds to storing its records (see pageWriteMode). */
  writeMode: PageWriteMode;
  /** For a replay: the run that received the page, whose records they are (see PageWriteParams.sourceRunId). */
  sourceRun?: { id: string; startedAt: string };
  /** The body was read from page_bodies (a replay): the page is sent without it. */
  bodyStored?: boolean;
}

/** What storing a page did: its records' counts, the run row's new version, and its records as sent (none when proven unchanged). */
export interface StoredPage {
  counts: RecordCounts;
  version: string;
  records: SerialisedRecords | undefined;
}

/**
 * How a run's last page was stored, which tells how to store the next: `inserted`, its records
 * were all new; `written`, all new or changed; `unchanged`, some were unchanged; `proven`, all
 * were proven unchanged without them.
 */
type LastPage = 'inserted' | 'written' | 'unchanged' | 'proven';

/** Another process stored a page of this run first (a stalled job picked up twice). */
export class RunTakenOverError extends Error {
  override readonly name = 'RunTakenOverError';
}

/** The pool pages are stored on. */
export type PagePool = Pick<pg.Pool, 'query' | 'connect'>;

/** Runs whose pages are remembered (whether the last one held unchanged records) at most; past it the memory starts again. */
const REMEMBERED_RUNS = 10_000;

/**
 * Stores a run's pages: each page, its records and the run's checkpoint atomically, in one
 * statement (so one round trip). The checkpoint only moves from the page count the page was
 * fetched at, so two processes on one run cannot both store a page.
 *
 * A page is taken to be like the run's previous one. After a page of only new records (a first
 * sync), its records are inserted plainly, and if one was stored already after all, the page is
 * stored again looking up unchanged records. After a page of new or changed records, the lookup
 * of unchanged ones is skipped. After a page with unchanged records (a re-sync), the page is
 * first offered as proven: stored without its records if an earlier envelope of the same body
 * proves them unchanged (see storeProvenPage); else without their payloads, which an unchanged
 * page does not need; if a record did change, that offer writes nothing and the page is stored
 * with them. Every way stores the same.
 */
export class PageWrites {
  /** Per run being stored here: how its last page was stored. */
  private readonly lastPage = new Map<string, LastPage>();
  /** Runs none of whose pages had a proof on record so far: they are not offered as proven again. */
  private readonly withoutProofs = new Set<string>();

  constructor(
    private readonly pool: PagePool,
    private readonly horizons: ChangeHorizons,
  ) {}

  /** Whether the run's next page will likely be proven unchanged, so that its records need not be serialised ahead. */
  expectsProven(runId: string): boolean {
    return fastPathOn('provenPages') && this.lastPage.get(runId) === 'proven';
  }

  async storePage(runId: string, pagesBefore: number, page: PageToStore, source: string): Promise<StoredPage> {
    const last = this.lastPage.get(runId);
    const expectsUnchanged = last === 'unchanged' || last === 'proven';
    // A body stored already is not sent again (a megabyte on a 1000-record page): the statement finds it.
    const bodyStored = page.bodyStored === true;
    if (page.derivation !== null && page.writeMode.refreshScope === null && expectsUnchanged && !this.withoutProofs.has(runId) && fastPathOn('provenPages')) {
      const proven = await this.storeIfProven(runId, pagesBefore, page, source, page.derivation);
      if (proven) return proven;
    }
    const records = typeof page.records === 'function' ? page.records() : page.records;
    const params = pageWriteParams(runId, pagesBefore, page, records, source, bodyStored ? null : page.raw);
    if (expectsUnchanged && fastPathOn('statementByLastPage')) {
      const row = await this.send<StoreUnchangedPageRow, PageWriteParams>(storeUnchangedPage, await this.withHorizon(params, last), page.raw);
      if (!row?.claimed) throw takenOver(runId, pagesBefore);
      if (row.version) return this.stored(runId, { counts: { new: 0, updated: 0, unchanged: records.keys.length }, version: row.version, records }, 'unchanged');
    }
    const row = await this.storeWithRecords(last, { ...params, payloads: records.payloads }, page.raw);
    if (!row?.version) throw takenOver(runId, pagesBefore);
    const counts = countsOf(records.keys.length, row);
    const how = counts.unchanged > 0 ? 'unchanged' : counts.updated > 0 ? 'written' : 'inserted';
    return this.stored(runId, { counts, version: row.version, records }, records.keys.length === 0 ? last : how);
  }

  /** Forgets a run that ended. */
  forget(runId: string): void {
    this.lastPage.delete(runId);
    this.withoutProofs.delete(runId);
  }

  /**
   * Stores the page with its records as the run's last page suggests: after one of only new
   * records by a plain insert, and if one is stored already, looking up unchanged ones instead;
   * after new or changed ones without the lookup; else with it.
   */
  private async storeWithRecords(last: LastPage | undefined, params: StorePageParams, body: PageEnvelope['raw']): Promise<StorePageRow | undefined> {
    const lookingUp = async () => this.storeWith(storePageLookingUpUnchanged, await this.withHorizon(params, last), body);
    if (!fastPathOn('statementByLastPage')) return lookingUp();
    if (last === 'written') return this.storeWith(storePageUpsertingRecords, params, body);
    if (last !== 'inserted') return lookingUp();
    try {
      return await this.storeWith(storePageInsertingRecords, params, body);
    } catch (error) {
      if (!isViolationOf(error, UNIQUE_VIOLATION, RECORDS_PRIMARY_KEY)) throw error;
      return lookingUp();
    }
  }

  /**
   * The params with a change horizon, for a statement that may find all of a page's records
   * unchanged and keep that as its proof (see KIND_HIGHEST_BELOW_HORIZON). A run's first page
   * here takes the newest known, read at its claim or since; a later one a horizon read now,
   * above the run's own pages before it. A page without a derivation keeps no proof: none needed.
   */
  private async withHorizon<Params extends PageWriteParams>(params: Params, last: LastPage | undefined): Promise<Params> {
    if (params.derivation === null) return params;
    return { ...params, changeHorizon: await (last === undefined ? this.horizons.known() : this.horizons.read()) };
  }

  private storeWith(statement: NamedStatement<StorePageParams>, params: StorePageParams, body: PageEnvelope['raw']): Promise<StorePageRow | undefined> {
    return this.send<StorePageRow, StorePageParams>(statement, params, body, params.keepHistory ? params : undefined);
  }

  /**
   * Sends a statement that stores a page, and sends it once more with its body if the envelope's
   * foreign key failed it (see sendOnceMore): a body found stored (or read by a replay, the page
   * then sent without it) may be deleted by the orphan sweep (see PageRetention) just as the page
   * is stored, its envelope the first to refer to it. The statement then wrote nothing; sent again,
   * it finds no body and stores the one it carries (`bodyIfGone`, when sent without it).
   */
  private send<Row extends pg.QueryResultRow, Params extends PageWriteParams>(
    statement: NamedStatement<Params>,
    params: Params,
    bodyIfGone: PageEnvelope['raw'],
    versionsOf?: VersionsLockParams,
  ): Promise<Row | undefined> {
    const query = statement.with(params);
    // Sent with its body, the same statement goes again as it is: its arrays are not encoded twice.
    const again = params.body === null ? () => statement.with({ ...params, body: bodyIfGone }) : () => query;
    return this.sendOnceMore<Row>(query, again, versionsOf);
  }

  /**
   * Sends `query`, then `again()` if the envelope's foreign key failed it. Offered as proven
   * (storeProvenPage stores no body), a page whose proof's envelope went with its body writes
   * nothing the second time, and is then stored with its records and body.
   */
  private async sendOnceMore<Row extends pg.QueryResultRow>(query: PreparedQuery, again: () => PreparedQuery, versionsOf?: VersionsLockParams): Promise<Row | undefined> {
    const sendOne = async (prepared: PreparedQuery) => (versionsOf ? this.sendAfterVersionsLock<Row>(prepared, versionsOf) : (await this.pool.query<Row>(prepared)).rows[0]);
    try {
      return await sendOne(query);
    } catch (error) {
      if (!isViolationOf(error, FOREIGN_KEY_VIOLATION, ENVELOPE_BODY_KEY)) throw error;
      return sendOne(again());
    }
  }

  /** Sends a statement that keeps record versions (append) after the kind's versions lock (see takeVersionsLock), in one transaction. */
  private sendAfterVersionsLock<Row extends pg.QueryResultRow>(query: PreparedQuery, versionsOf: VersionsLockParams): Promise<Row | undefined> {
    return inTransaction(this.pool, async (client) => {
      await client.query(takeVersionsLock.with({ source: versionsOf.source, kind: versionsOf.kind }));
      return (await client.query<Row>(query)).rows[0];
    });
  }

  /** Stores the page without its records if they are proven unchanged; undefined if not. */
  private async storeIfProven(runId: string, pagesBefore: number, page: PageToStore, source: string, derivation: string): Promise<StoredPage | undefined> {
    const query = storeProvenPage.with(provenPageParams(runId, pagesBefore, page, source, derivation));
    const row = await this.sendOnceMore<StoreProvenPageRow>(query, () => query);
    if (!row?.claimed) throw takenOver(runId, pagesBefore);
    if (!row.known) this.withoutProofs.add(runId);
    if (!row.version) return undefined;
    return this.stored(runId, { counts: { new: 0, updated: 0, unchanged: Number(row.records) }, version: row.version, records: undefined }, 'proven');
  }

  private stored(runId: string, stored: StoredPage, how: LastPage | undefined): StoredPage {
    if (this.lastPage.size >= REMEMBERED_RUNS) {
      this.lastPage.clear();
      this.withoutProofs.clear();
    }
    if (how !== undefined) this.lastPage.set(runId, how);
    return stored;
  }
}

function takenOver(runId: string, pagesBefore: number): RunTakenOverError {
  return new RunTakenOverError(`run ${runId} moved past page ${pagesBefore} in another process`);
}
