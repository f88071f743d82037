import { NamedStatement } from '../namedStatement.js';
import { PAGE_META_COLUMNS, type PageMetaRow } from '../pageMeta.js';

export interface ReadPagesToReplayParams {
  job: string;
  queryIndex: number;
  /** Only the runs of this fan-out value; null for every run. */
  value: string | null;
  /** Only runs started at or after this; null for all. */
  since: Date | null;
  /** The last page replayed: the next ones come after it in (run start, run id, page) order. */
  afterStartedAt: string;
  afterRunId: string;
  afterPageSeq: number;
  limit: number;
}

/** A stored page to replay, with its body as received and the run that received it. */
export interface PageToReplayRow extends PageMetaRow {
  run_id: string;
  /** Postgres's own text of it, exact to the microsecond, to page on. */
  run_started_at: string;
  fan_value: string | null;
  body: string;
}

/**
 * The next stored pages of a job's query, oldest run first and each run's pages in order, so that
 * the last version of a record replayed is the last one received. Replays' own runs are left out:
 * their pages are other runs' pages.
 */
export const readPagesToReplay = new NamedStatement<ReadPagesToReplayParams>(
  'feedsync_read_pages_to_replay_v1',
  `select r.id as run_id, r.started_at::text as run_started_at, r.fan_value, ${PAGE_META_COLUMNS.split(', ').map((column) => `e.${column}`).join(', ')}, b.body::text as body
    from sync_runs r
    join envelopes e on e.run_id = r.id
    join page_bodies b on b.content_hash = e.content_hash
    where r.job = :job::text and r.query_index = :queryIndex::int and r.run_key not like 'replay/%'
      and (:value::text is null or r.fan_value = :value::text)
      and (:since::timestamptz is null or r.started_at >= :since::timestamptz)
      and (r.started_at, r.id, e.page_seq) > (:afterStartedAt::timestamptz, :afterRunId::uuid, :afterPageSeq::int)
    order by r.started_at, r.id, e.page_seq
    limit :limit::int`,
);
