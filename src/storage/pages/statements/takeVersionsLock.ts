import { NamedStatement } from '../../database/NamedStatement.js';

/** The advisory lock class of a kind's record versions; the source and kind's hash is the second key. */
export const VERSIONS_LOCK_CLASS = 734_611;

export interface VersionsLockParams {
  source: string;
  kind: string;
}

/**
 * Makes the pages of append queries of one kind take turns, to the end of the transaction, ahead
 * of the statement that writes their records and versions: a statement's snapshot is taken when
 * it starts, so one that waited inside for another run's page of the same keys would not see the
 * versions that page opened, and would leave them open beside its own.
 */
export const takeVersionsLock = new NamedStatement<VersionsLockParams>(
  'feedsync_take_versions_lock_v1',
  `select pg_advisory_xact_lock(${VERSIONS_LOCK_CLASS}, hashtext(:source::text || '/' || :kind::text))`,
);
