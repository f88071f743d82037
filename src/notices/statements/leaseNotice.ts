import { NamedStatement } from '../../storage/database/NamedStatement.js';
import { LEASED_COLUMNS } from './leasedNotice.js';

/** Takes this notice, if pending and due, for one attempt of at most :leaseMs. */
export const leaseNotice = new NamedStatement<{ noticeId: string; leaseMs: number }>(
  'feedsync_notice_lease_one_v3',
  `update notices set next_attempt_at = now() + :leaseMs::int * interval '1 millisecond'
    where id = :noticeId::text and state = 'pending' and next_attempt_at <= now()
    returning ${LEASED_COLUMNS}`,
);
