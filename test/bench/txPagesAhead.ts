import { hash } from 'node:crypto';
import { Pool } from 'undici';
import { PayloadLines } from '../../src/storage/records/PayloadLines.js';
import { PAGES_AHEAD_DEPTH } from '../../src/sync/PagesAhead.js';
import { sourceConnections } from '../../src/sync/SourceRegistry.js';
import { TX_RUN_CONCURRENCY } from './benchConfig.js';
import { fetchTxList, RESULT_WINDOW, slideWindow, txListPath, type TxQuery } from './txPages.js';

/** feedsync's keep-alive connections to a source, in the worker that syncs the txlist query. */
export const FEEDSYNC_HTTP_CONNECTIONS = sourceConnections(TX_RUN_CONCURRENCY);
/** feedsync's pages on their way behind the one being stored. */
export const FEEDSYNC_PAGES_AHEAD = PAGES_AHEAD_DEPTH;

/** A page's request and the one before it, as feedsync's PagesAhead sends them within a window (its guessed next page). */
const REQUESTS_IN_FLIGHT = 2;

/** A page fetched, parsed and prepared as feedsync prepares one: records serialised and hashed, the body hashed. */
export interface PreparedTxPage {
  /** 1-based position of the page in the walk. */
  seq: number;
  requestUrl: string;
  /** The body's bytes as received, stored as the page's body. */
  raw: Buffer;
  bytes: number;
  /** sha256 of the body, hex (feedsync's page_bodies key). */
  bodyHash: string;
  status: string;
  message: string;
  latencyMs: number;
  /** The records new to this walk (a slid window's overlap left out), as keys, sha1 hashes (base64) and JSON texts one a line in UTF-8 (null: none), as feedsync's serialiseRecords writes them. */
  keys: string[];
  hashes: string[];
  payloads: Buffer | null;
  /** Records on the page as received. */
  received: number;
}

/** What a page's request knows when it leaves: where it is, and what of it an earlier window already read. */
interface PageRequest {
  seq: number;
  windowStart: number;
  page: number;
  skip: ReadonlySet<string>;
}

/** A prepared page, and where the next window starts when it was the last of its window. */
interface Fetched {
  prepared: PreparedTxPage;
  slide?: { windowStart: number; skip: Set<string> };
}

/**
 * The pages of a txlist query, paged as feedsync pages it (see walkTxPages), fetched ahead of
 * the stores that take them: `lookAhead` pages behind each one taken, over `connections`
 * keep-alive connections. As in feedsync's PagesAhead (there from a run's fourth page, on a
 * guess), within a result window a page's request leaves with the one before it (whose position
 * it follows from), once the page before that one is fetched and prepared: two requests in
 * flight; the next window starts from the last block of the window's last page, so its first
 * request waits for that page. Pages are handed out in order, to any number of takers; nothing
 * past the first short page is handed out.
 */
export class TxPagesAhead {
  private readonly pool: Pool;
  private readonly pagesPerWindow: number;
  /** Requested, in order, not yet taken. */
  private readonly pending: Promise<Fetched>[] = [];
  /** The next page to request; undefined while it waits on the current window's last page, or after the end. */
  private nextRequest: PageRequest | undefined;
  private ended = false;
  /** The last requests' pages, fetched and prepared: a request leaves once the oldest of REQUESTS_IN_FLIGHT is. */
  private readonly inFlight: Promise<unknown>[] = [];
  /** Takers are served one after another, so the end and the slides are seen in page order. */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly query: TxQuery,
    private readonly connections = FEEDSYNC_HTTP_CONNECTIONS,
    private readonly lookAhead = FEEDSYNC_PAGES_AHEAD,
  ) {
    this.pool = new Pool(new URL(query.explorerBaseUrl).origin, { connections, pipelining: 1 });
    this.pagesPerWindow = Math.floor(RESULT_WINDOW / query.limit);
    this.nextRequest = { seq: 1, windowStart: query.startblock, page: 1, skip: new Set() };
  }

  /** The next page in order, or undefined after the last one. */
  next(): Promise<PreparedTxPage | undefined> {
    const taken = this.turn.then(() => this.take());
    this.turn = taken.catch(() => undefined);
    return taken;
  }

  async close(): Promise<void> {
    this.ended = true;
    await Promise.allSettled(this.pending.splice(0));
    await this.pool.close();
  }

  private async take(): Promise<PreparedTxPage | undefined> {
    // The page taken now, and lookAhead more on their way behind it.
    this.fill(this.lookAhead + 1);
    const request = this.pending.shift();
    if (!request) return undefined;
    const { prepared, slide } = await request;
    if (prepared.received < this.query.limit) {
      // The last page: requests that left for pages after it within its window are dropped.
      this.ended = true;
      this.nextRequest = undefined;
      await Promise.allSettled(this.pending.splice(0));
    } else if (slide) {
      this.nextRequest = { seq: prepared.seq + 1, windowStart: slide.windowStart, page: 1, skip: slide.skip };
      this.fill(this.lookAhead);
    }
    return prepared;
  }

  private fill(size: number): void {
    while (!this.ended && this.nextRequest && this.pending.length < size) {
      const request = this.nextRequest;
      const before = this.inFlight.length >= REQUESTS_IN_FLIGHT ? this.inFlight.shift()! : Promise.resolve();
      const fetched = before.then(() => this.fetch(request));
      // Awaited in turn by take(); a failure of a page never taken is dropped with it.
      this.inFlight.push(fetched.catch(() => undefined));
      this.pending.push(fetched);
      this.nextRequest = request.page < this.pagesPerWindow ? { ...request, seq: request.seq + 1, page: request.page + 1 } : undefined;
    }
  }

  private async fetch(request: PageRequest): Promise<Fetched> {
    const { query } = this;
    const path = txListPath(query, request.windowStart, request.page);
    const started = performance.now();
    const { body: raw, envelope } = await fetchTxList(this.pool, query, path);
    const latencyMs = performance.now() - started;
    const received = envelope.data.result;
    const prepared: PreparedTxPage = {
      seq: request.seq,
      requestUrl: `${query.explorerBaseUrl}${path}`,
      raw,
      bytes: raw.length,
      bodyHash: hash('sha256', raw, 'hex'),
      status: envelope.status,
      message: envelope.message,
      latencyMs,
      keys: [],
      hashes: [],
      payloads: null,
      received: received.length,
    };
    const lines = new PayloadLines(received.length);
    for (const record of received) {
      if (request.skip.has(record.hash)) continue;
      prepared.keys.push(record.hash);
      prepared.hashes.push(lines.add(JSON.stringify(record)));
    }
    prepared.payloads = lines.finish();
    if (request.page < this.pagesPerWindow || received.length < query.limit) return { prepared };
    return { prepared, slide: slideWindow(received, request.windowStart) };
  }
}
