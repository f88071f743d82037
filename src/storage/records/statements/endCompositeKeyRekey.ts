import { NamedStatement } from '../../database/NamedStatement.js';

/** Marks a (source, kind) rekeyed: its rows are all as escaped composite keys write them. */
export const endCompositeKeyRekey = new NamedStatement<{ source: string; kind: string }>(
  'feedsync_end_composite_key_rekey_v1',
  `delete from composite_key_rekeys where source = :source::text and kind = :kind::text`,
);
