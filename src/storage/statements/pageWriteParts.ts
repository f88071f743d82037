/** What every statement that stores a page takes: the run, the page's records and its envelope. */
export interface PageWriteParams {
  runId: string;
  /** The run's page count the page was fetched at: the page is stored only if the run still stands there. */
  pagesBefore: number;
  source: string;
  kind: string;
  keys: string[];
  hashes: string[];
  /** The run's checkpoint after this page, as JSON. */
  checkpoint: string | null;
  cursorValue: string | null;
  requestUrl: string;
  status: string;
  message: string;
  /** The envelope's body as received. */
  body: string;
  bytes: number;
  contentHash: string;
}

/** Locks the run row if it still stands at :pagesBefore: every write of a page depends on it. */
export const CLAIM_PAGE = `claim as (
      select id from sync_runs where id = :runId::uuid and pages = :pagesBefore::int and status = 'running' for update
    )`;

/** Inserts the page's envelope for the run the CTE `run` wrote. */
export const INSERT_ENVELOPE = `envelope as (
      insert into envelopes (run_id, page_seq, request_url, status, message, body, bytes, content_hash)
      select id, :pagesBefore::int + 1, :requestUrl::text, :status::text, :message::text, :body::text::json, :bytes::int, :contentHash::text from run
    )`;
