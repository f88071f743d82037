/** A stored page's metadata, as envelopes holds it: never its body. */
export interface PageMetaRow {
  page_seq: number;
  request_url: string;
  status: string;
  message: string;
  bytes: number;
  content_hash: string;
  latency_ms: number | null;
  fetched_at: Date;
}

export const PAGE_META_COLUMNS = 'page_seq, request_url, status, message, bytes, content_hash, latency_ms, fetched_at';
