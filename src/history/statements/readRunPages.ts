import { NamedStatement } from '../../storage/database/NamedStatement.js';
import { PAGE_META_COLUMNS } from '../../storage/pages/pageMeta.js';

export interface ReadRunPagesParams {
  runId: string;
  limit: number;
  offset: number;
}


/** A page of a run's stored pages, in page order, by the (run, page) index. */
export const readRunPages = new NamedStatement<ReadRunPagesParams>(
  'feedsync_history_run_pages_v1',
  `select ${PAGE_META_COLUMNS} from envelopes where run_id = :runId::uuid order by page_seq limit :limit::int offset :offset::int`,
);
