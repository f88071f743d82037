import { NamedStatement } from '../../database/NamedStatement.js';
import type { RunState } from '../runState.js';

/** A batch of runs to finish, one array per column, one element per run; null where a run has none. */
export interface FinishRunsParams {
  runIds: string[];
  /** The row version each outcome was made from: a run's writes happen only if its row is still that version. */
  versions: string[];
  statuses: string[];
  finishedAts: Date[];
  stopReasons: (string | null)[];
  errorKinds: (string | null)[];
  errors: (string | null)[];
  cursorFields: (string | null)[];
  cursorValues: (string | null)[];
  noticeIds: (string | null)[];
  noticeTypes: (string | null)[];
  noticeBodies: (string | null)[];
  noticeTraceparents: (string | null)[];
  crashes: (number | null)[];
}

/** A run finishRuns wrote, with what its tick counts. */
export interface FinishedRunRow {
  id: string;
  tick_id: string | null;
  status: RunState['status'];
  records_new: number;
  records_updated: number;
  records_unchanged: number;
  records_skipped: number;
}

/**
 * Records each run's final status (or `interrupted` or `retrying`, which have no finish time), its incremental
 * cursor and its outbox notice together;
 * returns the ids of the runs written. A finish time sent from this machine is at most a
 * millisecond short of the start (a JS Date drops the microseconds); `greatest` keeps the row
 * from ending before it started.
 */
export const finishRuns = new NamedStatement<FinishRunsParams>(
  'feedsync_finish_writes_v11',
  `with outcome as (
      select * from unnest(:runIds::uuid[], :versions::text[], :statuses::text[], :finishedAts::timestamptz[], :stopReasons::text[], :errorKinds::text[],
          :errors::text[], :cursorFields::text[], :cursorValues::text[], :noticeIds::text[], :noticeTypes::text[], :noticeBodies::text[], :noticeTraceparents::text[], :crashes::int[])
        as t(id, version, status, finished_at, stop_reason, error_kind, error, cursor_field, cursor_value, notice_id, notice_type, notice_body, notice_traceparent, crashes)
    ),
    run as (
      update sync_runs s
      set status = o.status, finished_at = case when o.status in ('interrupted', 'retrying') then null else greatest(o.finished_at, s.started_at) end, stop_reason = o.stop_reason, error_kind = o.error_kind, error = o.error,
        crashes = greatest(s.crashes, coalesce(o.crashes, 0)), updated_at = now()
      from outcome o
      -- An ended run stays as it ended, whoever finishes it late.
      where s.id = o.id and s.xmin::text = o.version and s.status not in ('succeeded', 'partial', 'failed')
      returning s.id, s.job, s.query_key, s.tick_id, s.status, s.records_new, s.records_updated, s.records_unchanged, s.records_skipped
    ),
    cursor as (
      insert into incremental_cursors as c (job, query_key, field, value, run_id, updated_at)
      select r.job, r.query_key, o.cursor_field, o.cursor_value, r.id, now() from run r join outcome o on o.id = r.id where o.cursor_field is not null
      order by r.job, r.query_key
      on conflict (job, query_key) do update set field = excluded.field, value = excluded.value, run_id = excluded.run_id, updated_at = excluded.updated_at
    ),
    notice as (
      insert into notices (id, run_id, type, body, traceparent)
      select o.notice_id, r.id, o.notice_type, o.notice_body, o.notice_traceparent from run r join outcome o on o.id = r.id where o.notice_id is not null
      on conflict do nothing
    )
    select id, tick_id, status, records_new, records_updated, records_unchanged, records_skipped from run`,
);
