import { withoutNulEscapes } from '../records/nulChars.js';
import type { PageToStore } from './PageWrites.js';
import type { SerialisedRecords } from '../records/serialiseRecords.js';
import type { PageWriteParams } from './statements/pageWriteParts.js';
import type { StoreProvenPageParams } from './statements/storeProvenPage.js';

/** The parameters every statement storing a page takes: the run, where it goes, and the page's envelope (its body aside). */
function envelopeParams(runId: string, pagesBefore: number, page: PageToStore, source: string) {
  return {
    runId,
    pagesBefore,
    source,
    kind: page.kind,
    checkpoint: page.checkpoint === undefined ? null : withoutNulEscapes(JSON.stringify(page.checkpoint)),
    cursorValue: page.cursorValue,
    requestUrl: page.requestUrl,
    status: page.status,
    message: page.message,
    bytes: page.bytes,
    contentHash: page.contentHash,
    latencyMs: Math.round(page.latencyMs),
  };
}

/** A page's parameters for storeProvenPage, which stores it without its records and body. */
export function provenPageParams(runId: string, pagesBefore: number, page: PageToStore, source: string, derivation: string): StoreProvenPageParams {
  return { ...envelopeParams(runId, pagesBefore, page, source), derivation };
}

/** A page's parameters for a statement storing its records; `body` null when it is stored already. */
export function pageWriteParams(runId: string, pagesBefore: number, page: PageToStore, records: SerialisedRecords, source: string, body: PageToStore['raw'] | null): PageWriteParams {
  return {
    ...envelopeParams(runId, pagesBefore, page, source),
    keys: records.keys,
    hashes: records.hashes,
    body,
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
    derivation: page.derivation,
    sourceRunId: page.sourceRun?.id ?? null,
    sourceRunStartedAt: page.sourceRun?.startedAt ?? null,
    // Read just before a statement that may keep an all-unchanged proof (see PageWrites).
    changeHorizon: null,
  };
}
