import { NamedStatement } from '../../database/NamedStatement.js';

/** The kinds to give a partition of `records` of their own. */
export interface MakeRecordsPartitionsParams {
  kinds: string[];
}

/**
 * Makes each kind's partition of `records` that does not exist yet (feedsync_records_partition,
 * migration 0019), moving its rows out of the default partition; returns the kinds given one.
 */
export const makeRecordsPartitions = new NamedStatement<MakeRecordsPartitionsParams>(
  'feedsync_make_records_partitions_v1',
  `select k.kind from unnest(:kinds::text[]) as k(kind) where feedsync_records_partition(k.kind)`,
);
