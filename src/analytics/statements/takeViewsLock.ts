import { NamedStatement } from '../../storage/database/NamedStatement.js';

/** Only feedsync's view maker takes this advisory lock: a migrate and starting workers take turns. */
const VIEWS_LOCK = 7_346_112_003;

/** Takes the view maker's lock to the end of the transaction (see applyKindViews). */
export const takeViewsLock = new NamedStatement<Record<string, never>>('feedsync_take_views_lock_v1', `select pg_advisory_xact_lock(${VIEWS_LOCK})`);
