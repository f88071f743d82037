import { NamedStatement } from '../../database/NamedStatement.js';

/** The highest value of the incremental field stored by the last successful run of a job's query. */
export const readIncrementalCursor = new NamedStatement<{ job: string; queryKey: string }>(
  'feedsync_read_incremental_cursor_v1',
  'select value from incremental_cursors where job = :job::text and query_key = :queryKey::text',
);
