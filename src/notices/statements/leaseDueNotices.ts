import { NamedStatement } from '../../storage/database/NamedStatement.js';
import { LEASED_COLUMNS } from './leasedNotice.js';

/**
 * Takes the :count oldest due notices for one attempt each, of at most :leaseMs; rows another
 * sender is leasing at this moment are skipped, not waited for.
 */
export const leaseDueNotices = new NamedStatement<{ count: number; leaseMs: number }>(
  'feedsync_notice_lease_due_v3',
  `update notices set next_attempt_at = now() + :leaseMs::int * interval '1 millisecond'
    where id in (
      select id from notices where state = 'pending' and next_attempt_at <= now()
      order by next_attempt_at limit :count::int for update skip locked
    )
    returning ${LEASED_COLUMNS}`,
);
