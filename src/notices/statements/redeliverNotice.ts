import { NamedStatement } from '../../storage/database/NamedStatement.js';

/** Makes a notice, in any state, pending and due now; returns its id, no row when there is no such notice. */
export const redeliverNotice = new NamedStatement<{ noticeId: string }>(
  'feedsync_redeliver_notice_v1',
  `update notices set state = 'pending', next_attempt_at = now() where id = :noticeId::text returning id`,
);
