import { NamedStatement } from '../../storage/database/NamedStatement.js';
import { PAGE_META_COLUMNS } from '../../storage/pages/pageMeta.js';

export interface ReadPageMetaParams {
  runId: string;
  pageSeq: number;
}

/** One stored page's metadata. */
export const readPageMeta = new NamedStatement<ReadPageMetaParams>(
  'feedsync_history_page_meta_v1',
  `select ${PAGE_META_COLUMNS} from envelopes where run_id = :runId::uuid and page_seq = :pageSeq::int`,
);
