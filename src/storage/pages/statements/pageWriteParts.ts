import { recordOfKey } from '../../records/keyDigest.js';
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
  /**
   * The envelope's body as received: bytes (sent in binary, which for text is the UTF-8 itself) or
   * text; null when it is stored already (a replay read it), which the statement then finds.
   */
  body: Buffer | string | null;
  bytes: number;
  contentHash: string;
  latencyMs: number;
  /** Records of the page kept as dead letters (records.onInvalid: skip), one array element each. */
  deadIndexes: number[];
  deadKeys: string[];
  deadReasons: string[];
  deadRaws: (string | null)[];
  /** Records left out as duplicates of a later key, and NULs removed from payloads, in this page. */
  collapsed: number;
  nulsRemoved: number;
  /** Records `records.skip` left out of the page. */
  filtered: number;
  /** For a full_refresh query: its scope (job and query key), under which the page's keys are noted as returned by this run; null otherwise. */
  refreshScope: string | null;
  /** For an append query: keep each new or changed record's version in record_versions. */
  keepHistory: boolean;
  /** The fingerprint of how the page's records were derived from its body (see recordsDerivation); null: store no proof. */
  derivation: string | null;
  /**
   * For a replay: the run that received the page, and when it started. Its records are written
   * as that run's (first seen, last changed, version), and a record last changed by a sync run
   * started after it is left as it is: the page holds an older version. Null for a sync.
   */
  sourceRunId: string | null;
  sourceRunStartedAt: string | null;
  /**
   * The change feed's horizon, read before the statement (readChangeHorizon), as text: a page
   * whose records are all found unchanged keeps the kind's highest change_seq as its proof only
   * when that is below it. Null: keep no such proof.
   */
  changeHorizon: string | null;
}

/** The run counters every page adds to, besides its records' own: a fragment of the `run` CTE's SET. */
export const ADD_PAGE_ANOMALIES = `records_skipped = s.records_skipped + cardinality(:deadIndexes::int[]),
          records_collapsed = s.records_collapsed + :collapsed::int, nul_chars_removed = s.nul_chars_removed + :nulsRemoved::int,
          records_filtered = s.records_filtered + :filtered::int`;

/** Inserts the page's dead letters for the run the CTE `run` wrote. */
export const INSERT_DEAD_LETTERS = `dead_letters as (
      insert into dead_letters (run_id, page_seq, record_index, key, reason, raw)
      select run.id, :pagesBefore::int + 1, d.record_index, d.key, d.reason, d.raw
      from run, unnest(:deadIndexes::int[], :deadKeys::text[], :deadReasons::text[], :deadRaws::text[]) as d(record_index, key, reason, raw)
    )`;

/**
 * Locks the run row if it still stands at :pagesBefore: every write of a page depends on it. The
 * row is found by primary key alone and its status checked once it is locked: with `status =
 * 'running'` in the lookup, a generic plan made while statistics said no run was unfinished walks
 * the partial index of unfinished runs instead, through every run of a 10,000-value tick per page.
 */
export const CLAIM_PAGE = `locked_run as materialized (
      select id, status from sync_runs where id = :runId::uuid and pages = :pagesBefore::int for update
    ),
    claim as (
      select id from locked_run where status = 'running'
    )`;

/**
 * Notes the page's keys as returned by this run of a full_refresh query (see sweepFullRefresh);
 * nothing for other modes. A record kept as a dead letter was returned too: its stored version,
 * if any, is not to be marked deleted.
 */
export const NOTE_REFRESH_KEYS = `refresh_keys as (
      insert into full_refresh_keys as f (scope, source, kind, key, run_id)
      select :refreshScope::text, :source::text, :kind::text, k.key, run.id
      from run, (select unnest(:keys::text[]) union select unnest(:deadKeys::text[])) as k(key)
      where :refreshScope::text is not null
      on conflict (scope, source, kind, key) do update set run_id = excluded.run_id where f.run_id <> excluded.run_id
    )`;

/** A page whose records all reached the table as sent: only such a page's records can be proven unchanged later. */
export const PAGE_WITHOUT_ANOMALIES = `cardinality(:keys::text[]) > 0 and cardinality(:deadIndexes::int[]) = 0
      and :collapsed::int = 0 and :nulsRemoved::int = 0 and :filtered::int = 0`;

/** The kind's highest change_seq in the statement's snapshot: a proof of the kind below holds while this is at most its `seq_to`. */
export const KIND_HIGHEST_CHANGE = `(select coalesce(max(c.change_seq), 0) from records c where c.kind = :kind::text)`;

/**
 * The kind's highest change_seq in the statement's snapshot, as the proof of a page whose records
 * were all found unchanged: while it stays the highest, none of them changed. Only when it is
 * below the change horizon read before the statement (:changeHorizon): every change the snapshot
 * does not hold then draws a higher number. Otherwise (a change below it may still be in flight,
 * unseen) null, no proof.
 */
export const KIND_HIGHEST_BELOW_HORIZON = `(select case when h.seq < :changeHorizon::bigint then h.seq end from (select ${KIND_HIGHEST_CHANGE} as seq) h)`;

/**
 * Inserts the page's body, for the run the CTE `run` wrote, unless a body with its hash is stored
 * already (by an earlier page): then the text is not even parsed, and the envelope refers to that
 * one (the foreign key, ENVELOPE_BODY_KEY, is checked at the statement's end, when both are in).
 * Sent without it (null), it inserts none: if none is stored, the envelope's foreign key fails the
 * statement.
 */
export const INSERT_PAGE_BODY = `page_body as (
      insert into page_bodies (content_hash, body, bytes)
      select :contentHash::text, :body::text::json, :bytes::int from run
      where :body::text is not null and not exists (select 1 from page_bodies b where b.content_hash = :contentHash::text)
      on conflict (content_hash) do nothing
    )`;

/** The envelope's foreign key to its body in page_bodies. */
export const ENVELOPE_BODY_KEY = 'envelopes_content_hash_page_bodies_content_hash_fk';

/** Inserts the page's envelope for the run the CTE `run` wrote, with the proof the CTE `page_proof` holds (no row: none). */
export const INSERT_ENVELOPE = `envelope as (
      insert into envelopes (run_id, page_seq, request_url, status, message, bytes, content_hash, latency_ms, proof_seq_from, proof_seq_to, proof_records, proof_run_id, proof_derivation)
      select run.id, :pagesBefore::int + 1, :requestUrl::text, :status::text, :message::text, :bytes::int, :contentHash::text, :latencyMs::int,
        p.seq_from, p.seq_to, p.records, case when p.seq_to is not null then p.run_id end, case when p.seq_to is not null then :derivation::text end
      from run left join page_proof p on :derivation::text is not null
    )`;

/** The run a page's records are written as: the run storing it, or for a replay the run that received it. */
export const RECORDS_RUN = 'coalesce(:sourceRunId::uuid, :runId::uuid)';

/**
 * For a replay, whether the record with the key `n.key` is stored as a sync run started after
 * the page's last changed it (a newer version than the page's). Replays' own runs do not count:
 * what they wrote was derived anew, and is derived anew again.
 */
export const NEWER_VERSION_STORED = `:sourceRunId::uuid is not null and exists (
        select 1 from records c join sync_runs l on l.id = c.last_changed_run_id
        where ${recordOfKey('c', 'n.key')}
          and l.started_at > :sourceRunStartedAt::timestamptz and l.run_key not like 'replay/%'
      )`;
