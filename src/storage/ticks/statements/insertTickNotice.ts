import { NamedStatement } from '../../database/NamedStatement.js';

export interface InsertTickNoticeParams {
  id: string;
  tickId: string;
  type: string;
  body: string;
}

/** Queues a tick's notice in the outbox; a tick has one, whoever writes it. */
export const insertTickNotice = new NamedStatement<InsertTickNoticeParams>(
  'feedsync_insert_tick_notice_v2',
  `insert into notices (id, tick_id, type, body, traceparent)
    select :id::text, :tickId::uuid, :type::text, :body::text, (select traceparent from job_ticks where id = :tickId::uuid)
    on conflict do nothing`,
);
