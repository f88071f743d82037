import { NamedStatement } from '../../storage/database/NamedStatement.js';

/** A batch of delivery attempts, one array per column, one element per attempt. */
export interface RecordDeliveryAttemptsParams {
  noticeIds: string[];
  /** Null: no HTTP answer (network error, timeout). */
  httpStatuses: (number | null)[];
  latenciesMs: number[];
  errors: (string | null)[];
  /** Each notice's state after its attempt. */
  states: string[];
  /** Each notice's attempt count after this one. */
  attemptCounts: number[];
  /** Until each notice's next attempt (0 unless still pending). */
  delaysMs: number[];
}

/** Records the attempts and the notices' new states in one statement. */
export const recordDeliveryAttempts = new NamedStatement<RecordDeliveryAttemptsParams>(
  'feedsync_notice_attempts_v3',
  `with attempt as (
      select * from unnest(:noticeIds::text[], :httpStatuses::int[], :latenciesMs::int[], :errors::text[], :states::text[], :attemptCounts::int[], :delaysMs::bigint[])
        as t(notice_id, http_status, latency_ms, error, state, attempts, delay_ms)
    ),
    recorded as (
      insert into notice_attempts (notice_id, http_status, latency_ms, error)
      select notice_id, http_status, latency_ms, error from attempt
    )
    update notices n set state = a.state, attempts = a.attempts, last_error = a.error,
      delivered_at = case when a.state = 'delivered' then now() end,
      next_attempt_at = now() + a.delay_ms * interval '1 millisecond'
    from attempt a where n.id = a.notice_id`,
);
