import { NamedStatement } from '../../storage/namedStatement.js';

export interface ReadRunPagesParams {
  runId: string;
  limit: number;
  offset: number;
}

/** A stored page's metadata: never its body. */
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

/** A page of a run's stored pages, in page order, by the (run, page) index. */
export const readRunPages = new NamedStatement<ReadRunPagesParams>(
  'feedsync_history_run_pages_v1',
  `select ${PAGE_META_COLUMNS} from envelopes where run_id = :runId::uuid order by page_seq limit :limit::int offset :offset::int`,
);
