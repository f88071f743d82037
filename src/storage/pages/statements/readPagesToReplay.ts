import { NamedStatement } from '../../database/NamedStatement.js';
import { PAGE_META_COLUMNS, type PageMetaRow } from '../pageMeta.js';

export interface ReadPagesToReplayParams {
  job: string;
  queryIndex: number;
  /** Only the runs of this fan-out value; null for every run. */
  value: string | null;
  /** Only runs started at or after this; null for all. */
  since: Date | null;
  /** Only each query key's (value's) last succeeded run: a full_refresh query's records are those of its last complete run. */
  latestRunOnly: boolean;
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
 * their pages are other runs' pages. For a full_refresh query only the last complete run's pages
 * are read, so that a replay never brings back a record a later run no longer returned.
 */
export const readPagesToReplay = new NamedStatement<ReadPagesToReplayParams>(
  'feedsync_read_pages_to_replay_v2',
  `select r.id as run_id, r.started_at::text as run_started_at, r.fan_value, ${PAGE_META_COLUMNS.split(', ').map((column) => `e.${column}`).join(', ')}, b.body::text as body
    from sync_runs r
    join envelopes e on e.run_id = r.id
    join page_bodies b on b.content_hash = e.content_hash
    where r.job = :job::text and r.query_index = :queryIndex::int and r.run_key not like 'replay/%'
      and (:value::text is null or r.fan_value = :value::text)
      and (:since::timestamptz is null or r.started_at >= :since::timestamptz)
      and (not :latestRunOnly::boolean or r.id = (
        select l.id from sync_runs l
        where l.job = r.job and l.query_key = r.query_key and l.status = 'succeeded' and l.run_key not like 'replay/%'
        order by l.started_at desc, l.id desc limit 1))
      and (r.started_at, r.id, e.page_seq) > (:afterStartedAt::timestamptz, :afterRunId::uuid, :afterPageSeq::int)
    order by r.started_at, r.id, e.page_seq
    limit :limit::int`,
);
