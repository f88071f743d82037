import { defaultMaxListeners, setMaxListeners } from 'node:events';
import { NOTICE_LEASE_MARGIN_MS } from '../config/bounds.js';
import type { WebhookConfig } from '../config/worker/webhookSchema.js';
import type { Logger } from '../observability/logger.js';
import type pg from 'pg';
import { poolOf, type Database } from '../storage/database/database.js';
import { columnsOf } from '../storage/database/columnsOf.js';
import type { NoticeState } from './noticeLog.js';
import { inDeliverySpan } from './deliverySpan.js';
import { traceIdOf } from '../observability/tracing/spans.js';
import { postNotice, type DeliveryAttempt } from './postNotice.js';
import type { LeasedNoticeRow } from './statements/leasedNotice.js';
import { findNextDue } from './statements/findNextDue.js';
import { leaseDueNotices } from './statements/leaseDueNotices.js';
import { leaseNotice } from './statements/leaseNotice.js';
import { recordDeliveryAttempts, type RecordDeliveryAttemptsParams } from './statements/recordDeliveryAttempts.js';

/** How many delivery attempts ended in each state. */
export type AttemptCounts = Record<NoticeState, number>;

export const noAttempts = (): AttemptCounts => ({ delivered: 0, pending: 0, exhausted: 0 });

export interface DeliveryResult {
  id: string;
  state: NoticeState;
  attempt: DeliveryAttempt;
}

const MIN_RETRY_AFTER_MS = 1_000;

/**
 * The outbox of completion notices. Delivery leases due notices, posts them (up to
 * `webhook.concurrency` at once), records every attempt, and schedules each one's next attempt
 * (jittered; Retry-After honoured) until delivered or too old. A failed delivery never touches
 * the run it reports.
 */
export class NoticeOutbox {
  private readonly pool: Pick<pg.Pool, 'query'>;

  constructor(
    private readonly db: Database,
    private readonly webhook: WebhookConfig,
    private readonly logger: Logger,
    private readonly random: () => number = Math.random,
    private readonly onAttempt?: (result: 'delivered' | 'failed' | 'exhausted') => void,
  ) {
    this.pool = poolOf(db);
  }

  /** Delivers one notice if it is pending and due; undefined when it is not (or leased elsewhere). */
  async deliver(id: string): Promise<DeliveryResult | undefined> {
    const { rows } = await this.pool.query<LeasedNoticeRow>(leaseNotice.with({ noticeId: id, leaseMs: this.leaseMs() }));
    const [result] = await this.attempt(rows);
    return result;
  }

  /**
   * Delivers every notice that is due, `webhook.concurrency` at a time, until none is left; a
   * batch costs two statements however many notices it holds. Returns how many attempts ended
   * in each state, added to `attempts` when given (a caller's running count).
   */
  async deliverDue(attempts: AttemptCounts = noAttempts()): Promise<AttemptCounts> {
    for (;;) {
      const batch = this.webhook.concurrency;
      const { rows } = await this.pool.query<LeasedNoticeRow>(leaseDueNotices.with({ count: batch, leaseMs: this.leaseMs() }));
      for (const result of await this.attempt(rows)) attempts[result.state] += 1;
      if (rows.length < batch) return attempts;
    }
  }

  /** Milliseconds until the earliest pending notice is due (0: now), or undefined when none is pending. */
  async nextDueInMs(): Promise<number | undefined> {
    const { rows } = await this.pool.query<{ ms: string | null }>(findNextDue.with({}));
    const ms = rows[0]?.ms;
    return ms === null || ms === undefined ? undefined : Math.max(0, Math.ceil(Number(ms)));
  }

  /** Posts leased notices at once, then records every attempt in one statement. */
  private async attempt(leased: readonly LeasedNoticeRow[]): Promise<DeliveryResult[]> {
    if (leased.length === 0) return [];
    // One deadline for the batch: every attempt in it ends within timeoutMs, so a slow receiver holds no drain up.
    const deadline = AbortSignal.timeout(this.webhook.timeoutMs);
    // undici listens on it once per request in flight: a batch may hold more than Node's leak warning expects.
    setMaxListeners(defaultMaxListeners + leased.length, deadline);
    const posted = await Promise.all(leased.map((notice) => inDeliverySpan(this.webhook, notice, () => postNotice(this.webhook, notice.id, notice.body, deadline))));
    const outcomes = leased.map((notice, index) => this.outcomeOf(notice, posted[index]!));
    const params = columnsOf<(typeof outcomes)[number], RecordDeliveryAttemptsParams>(outcomes, (o) => ({
      noticeIds: o.id,
      httpStatuses: o.attempt.httpStatus,
      latenciesMs: o.attempt.latencyMs,
      errors: o.attempt.error,
      states: o.state,
      attemptCounts: o.attempts,
      delaysMs: o.state === 'pending' ? o.delayMs : 0,
    }));
    await this.pool.query(recordDeliveryAttempts.with(params));
    return outcomes.map(({ id, state, attempt, attempts, delayMs, ageMs, runId, tickId, traceparent }) => {
      this.onAttempt?.(state === 'pending' ? 'failed' : state);
      const context = { noticeId: id, ...(runId ? { runId } : { tickId }), attempt: attempts, ...(traceparent ? { traceId: traceIdOf(traceparent) } : {}) };
      if (state === 'exhausted') this.logger.error({ ...context, error: attempt.error, ageMs }, 'notice exhausted: giving up delivery');
      else if (state === 'pending') this.logger.warn({ ...context, error: attempt.error, httpStatus: attempt.httpStatus, retryInMs: delayMs }, 'notice delivery failed; will retry');
      else this.logger.info({ ...context, httpStatus: attempt.httpStatus, latencyMs: attempt.latencyMs }, 'notice delivered');
      return { id, state, attempt };
    });
  }

  /** What an attempt makes of a notice: its new state and, if still pending, when to try again. */
  private outcomeOf(notice: LeasedNoticeRow, attempt: DeliveryAttempt) {
    const attempts = notice.attempts + 1;
    const ageMs = Date.now() - notice.created_at.getTime();
    // A receiver's Retry-After is honoured within bounds: never a tight loop, never past the give-up age.
    const delayMs = attempt.retryAfterMs === undefined ? this.scheduledDelay(attempts) : Math.min(Math.max(attempt.retryAfterMs, MIN_RETRY_AFTER_MS), this.webhook.giveUpAfterMs);
    let state: NoticeState = 'pending';
    if (attempt.delivered) state = 'delivered';
    else if (attempt.gone || ageMs + delayMs > this.webhook.giveUpAfterMs) state = 'exhausted';
    return { id: notice.id, runId: notice.run_id, tickId: notice.tick_id, traceparent: notice.traceparent, attempt, attempts, ageMs, delayMs, state };
  }

  /** How long a sender holds leased notices before another may try them: longer than any attempt. */
  private leaseMs(): number {
    return this.webhook.timeoutMs + NOTICE_LEASE_MARGIN_MS;
  }

  private scheduledDelay(attempts: number): number {
    const schedule = this.webhook.retryScheduleMs;
    const base = schedule[Math.min(attempts - 1, schedule.length - 1)]!;
    return Math.round(base * (0.8 + 0.4 * this.random()));
  }
}
