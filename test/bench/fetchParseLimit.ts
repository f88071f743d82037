import { walkTxPages, type TxQuery } from './txPages.js';

export interface FetchParseLimit {
  pages: number;
  records: number;
  seconds: number;
  pagesPerS: number;
  recordsPerS: number;
  mbPerS: number;
}

/**
 * The upstream ceiling: the query's pages fetched with undici on one keep-alive connection, one
 * at a time as one run reads them, and each body parsed; nothing stored.
 */
export async function measureFetchParse(query: TxQuery): Promise<FetchParseLimit> {
  const started = performance.now();
  const totals = await walkTxPages(query, () => undefined);
  const seconds = (performance.now() - started) / 1000;
  return {
    pages: totals.pages,
    records: totals.records,
    seconds,
    pagesPerS: totals.pages / seconds,
    recordsPerS: totals.records / seconds,
    mbPerS: totals.bytes / 1e6 / seconds,
  };
}
