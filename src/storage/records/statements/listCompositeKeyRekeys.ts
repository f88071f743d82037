import { NamedStatement } from '../../database/NamedStatement.js';

/** The (source, kind) pairs still to be rekeyed (see compositeKeyRekeys). */
export const listCompositeKeyRekeys = new NamedStatement<Record<string, never>>('feedsync_list_composite_key_rekeys_v1', `select source, kind from composite_key_rekeys order by source, kind`);
