import { NamedStatement } from '../../database/NamedStatement.js';
import { CHANGE_SEQ_LOCK } from './pageWriteParts.js';

/** Takes the change-feed lock (see CHANGE_ORDER) to the end of the transaction, ahead of the statement that draws change_seq values. */
export const takeChangeLock = new NamedStatement<Record<string, never>>('feedsync_take_change_lock_v1', `select pg_advisory_xact_lock(${CHANGE_SEQ_LOCK})`);
