import { NamedStatement } from '../../database/NamedStatement.js';

/** The horizon readChangeHorizon returns, as text: change_seq is a bigint. */
export interface ChangeHorizonRow {
  horizon: string;
}

/**
 * The change feed's horizon: every change_seq below it that will ever be committed is committed
 * (or rolled back) already, so a reader may read up to it and never find a lower number later.
 *
 * It is the lower of the sequence's next value, read first, and the oldest change ticket still
 * held (see takeChangeTicket): a writer holds a ticket below its numbers until it ends, and one
 * that takes its ticket after the sequence was read draws numbers above it. The sequence is read
 * before the locks (the lateral subquery runs for the row of `drawn`). The horizon must be read by
 * a statement before the one that reads below it, whose snapshot then holds every such change.
 *
 * As CTEs, so that a statement sent anyway (a run's claim, see claimRuns) can return it too:
 * `(select horizon from change_horizon)`.
 */
export const CHANGE_HORIZON = `drawn as materialized (
      select case when is_called then last_value + 1 else last_value end as next from records_change_seq
    ),
    change_horizon as (
      select least(drawn.next, held.oldest)::text as horizon
      from drawn cross join lateral (
        -- A bigint advisory key k shows as classid = k >> 32, objid = its low 32 bits; tickets are negative.
        select min(-(((l.classid::bigint << 32) | l.objid::bigint)) - 1) as oldest
        from pg_locks l
        where l.locktype = 'advisory' and l.objsubid = 1 and l.classid::bigint >= 2147483648 and drawn.next is not null
          and l.database = (select oid from pg_database where datname = current_database())
      ) held
    )`;

export const readChangeHorizon = new NamedStatement<Record<string, never>>(
  'feedsync_read_change_horizon_v2',
  `with ${CHANGE_HORIZON}
    select horizon from change_horizon`,
);
