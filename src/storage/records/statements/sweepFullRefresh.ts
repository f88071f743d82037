import { NamedStatement } from '../../database/NamedStatement.js';
import { CHANGE_TICKET } from './takeChangeTicket.js';
import { recordOfKey } from '../keyDigest.js';

export interface SweepFullRefreshParams {
  runId: string;
  scope: string;
}

/**
 * After a complete run of a full_refresh query: the keys of its scope that another run noted and
 * this one did not return are gone upstream. Their records are marked deleted (each with a new
 * change_seq, so the change feed carries the deletion), the keys forgotten, and the count added
 * to the run, whose new count and row version it returns. A record marked deleted already is left as it is.
 */
export const sweepFullRefresh = new NamedStatement<SweepFullRefreshParams>(
  'feedsync_sweep_full_refresh_v5',
  `with ${CHANGE_TICKET},
    gone as (
      delete from full_refresh_keys f using change_ticket
      where f.scope = :scope::text and f.run_id <> :runId::uuid
      returning f.source, f.kind, f.key
    ),
    deleted as (
      update records r
      set deleted_at = now(), changed_at = now(), change_seq = nextval('records_change_seq'), last_changed_run_id = :runId::uuid
      from gone
      where ${recordOfKey('r', 'gone.key', 'gone.source', 'gone.kind')} and r.deleted_at is null
      returning 1
    ),
    counted as (
      update sync_runs set records_deleted = records_deleted + (select count(*) from deleted)::int where id = :runId::uuid
      returning records_deleted, xmin::text as version
    )
    select (select count(*) from deleted)::int as deleted, (select records_deleted from counted) as records_deleted, (select version from counted) as version`,
);
