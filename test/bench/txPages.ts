import { Pool } from 'undici';

/** One txlist query of the hot address over a block range, paged like feedsync pages it. */
export interface TxQuery {
  explorerBaseUrl: string;
  apiKey: string;
  address: string;
  startblock: number;
  endblock: number;
  limit: number;
}

export interface TxRecord {
  hash: string;
  blockNumber: number;
  [field: string]: unknown;
}

export interface TxPage {
  /** Records new to this walk: the overlap a slid window re-reads is left out, as feedsync leaves it out. */
  records: TxRecord[];
  /** Records on the page as received. */
  received: number;
  bytes: number;
}

export interface TxEnvelope {
  status: string;
  message: string;
  data: { result: TxRecord[] };
}

/** The explorer's result window (page × limit ≤ 10,000); feedsync's `paging.window`. */
export const RESULT_WINDOW = 10_000;

/** The request path of page `page` of the window starting at block `windowStart`. */
export function txListPath(query: TxQuery, windowStart: number, page: number): string {
  return (
    `/api?module=account&action=txlist&q=${query.address}&startblock=${windowStart}&endblock=${query.endblock}` +
    `&sort=asc&page=${page}&limit=${query.limit}`
  );
}

/** GETs a txlist page: its body as received (bytes, as feedsync keeps them) and parsed; a status other than 200 or an error envelope throws. */
export async function fetchTxList(pool: Pool, query: TxQuery, path: string): Promise<{ body: Buffer; envelope: TxEnvelope }> {
  const response = await pool.request({ method: 'GET', path, headers: { authorization: `Bearer ${query.apiKey}`, accept: 'application/json' } });
  const body = Buffer.from(await response.body.arrayBuffer());
  const raw = body.toString('utf8');
  if (response.statusCode !== 200) throw new Error(`txlist answered ${response.statusCode}: ${raw.slice(0, 200)}`);
  const envelope = JSON.parse(raw) as TxEnvelope;
  if (envelope.status !== 'success') throw new Error(`txlist answered an error envelope: ${raw.slice(0, 200)}`);
  return { body, envelope };
}

/**
 * Where the window after a full one starts, like feedsync: at the last block read, with that
 * block's txs read so far to be skipped.
 */
export function slideWindow(received: readonly TxRecord[], windowStart: number): { windowStart: number; skip: Set<string> } {
  const last = received.at(-1)!.blockNumber;
  if (last === windowStart) throw new Error(`block ${last} alone fills the result window`);
  return { windowStart: last, skip: new Set(received.filter((tx) => tx.blockNumber === last).map((tx) => tx.hash)) };
}

/**
 * The pages feedsync fetches for a txlist query with `paging.window` on `startblock`: pages
 * 1..N of a window, then the window slides to the last block read, its overlap skipped. Calls
 * `onPage` for each page in order (awaiting it) and stops at the first short page.
 */
export async function walkTxPages(query: TxQuery, onPage: (page: TxPage) => void | Promise<void>): Promise<{ pages: number; records: number; bytes: number }> {
  const origin = new URL(query.explorerBaseUrl).origin;
  const pool = new Pool(origin, { connections: 1, pipelining: 1 });
  const pagesPerWindow = Math.floor(RESULT_WINDOW / query.limit);
  let windowStart = query.startblock;
  let page = 1;
  let skip = new Set<string>();
  const totals = { pages: 0, records: 0, bytes: 0 };
  try {
    for (;;) {
      const { body, envelope } = await fetchTxList(pool, query, txListPath(query, windowStart, page));
      const received = envelope.data.result;
      const records = skip.size > 0 ? received.filter((tx) => !skip.has(tx.hash)) : received;
      const bytes = body.length;
      totals.pages++;
      totals.records += records.length;
      totals.bytes += bytes;
      await onPage({ records, received: received.length, bytes });
      if (received.length < query.limit) return totals;
      if (page < pagesPerWindow) {
        page++;
        continue;
      }
      ({ windowStart, skip } = slideWindow(received, windowStart));
      page = 1;
    }
  } finally {
    await pool.close();
  }
}
