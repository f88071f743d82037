import { defaultMaxListeners, setMaxListeners } from 'node:events';
import { desc, eq, sql } from 'drizzle-orm';
import type { WebhookConfig } from '../config/schema.js';
import type { Logger } from '../observability/logger.js';
import type pg from 'pg';
import { poolOf, type Database } from '../storage/database.js';
import { notices } from '../storage/schema.js';
import { postNotice, type DeliveryAttempt } from './postNotice.js';

export type NoticeState = 'pending' | 'delivered' | 'exhausted';

/** How many delivery attempts ended in each state. */
export type AttemptCounts = Record<NoticeState, number>;

export const noAttempts = (): AttemptCounts => ({ delivered: 0, pending: 0, exhausted: 0 });

export interface NoticeRow {
  id: string;
  runId: string;
  type: string;
  state: NoticeState;
  attempts: number;
  createdAt: Date;
  deliveredAt: Date | null;
  nextAttemptAt: Date;
  lastError: string | null;
}

export interface DeliveryResult {
  id: string;
  state: NoticeState;
  attempt: DeliveryAttempt;
}

/** Added to the longest an attempt can take (its deadline, timeoutMs) before its lease ends. */
const LEASE_MARGIN_MS = 10_000;
const MIN_RETRY_AFTER_MS = 1_000;

const LEASED_COLUMNS = 'id, run_id, body, attempts, created_at';

/** LEASE_ONE: $1 notice id, $2 lease in ms. Takes this notice, if pending and due, for one attempt. */
const LEASE_ONE = `update notices set next_attempt_at = now() + $2::int * interval '1 millisecond'
    where id = $1::text and state = 'pending' and next_attempt_at <= now()
    returning ${LEASED_COLUMNS}`;

/**
 * LEASE_DUE: $1 how many, $2 lease in ms. Takes the oldest due notices for one attempt each;
 * rows another sender is leasing at this moment are skipped, not waited for.
 */
const LEASE_DUE = `update notices set next_attempt_at = now() + $2::int * interval '1 millisecond'
    where id in (
      select id from notices where state = 'pending' and next_attempt_at <= now()
      order by next_attempt_at limit $1::int for update skip locked
    )
    returning ${LEASED_COLUMNS}`;

interface LeasedNotice {
  id: string;
  run_id: string;
  body: string;
  attempts: number;
  created_at: Date;
}

/**
 * RECORD_ATTEMPTS: one array per column, one element per attempt: $1 notice ids, $2 HTTP
 * statuses, $3 latencies, $4 errors, $5 new states, $6 attempt counts, $7 ms to the next
 * attempt. The attempts and the notices' new states in one statement.
 */
const RECORD_ATTEMPTS = `with attempt as (
      select * from unnest($1::text[], $2::int[], $3::int[], $4::text[], $5::text[], $6::int[], $7::int[])
        as t(notice_id, http_status, latency_ms, error, state, attempts, delay_ms)
    ),
    recorded as (
      insert into notice_attempts (notice_id, http_status, latency_ms, error)
      select notice_id, http_status, latency_ms, error from attempt
    )
    update notices n set state = a.state, attempts = a.attempts, last_error = a.error,
      delivered_at = case when a.state = 'delivered' then now() end,
      next_attempt_at = now() + a.delay_ms * interval '1 millisecond'
    from attempt a where n.id = a.notice_id`;

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
    const { rows } = await this.pool.query<LeasedNotice>({ name: 'feedsync_notice_lease_one_v1', text: LEASE_ONE, values: [id, this.leaseMs()] });
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
      const { rows } = await this.pool.query<LeasedNotice>({ name: 'feedsync_notice_lease_due_v1', text: LEASE_DUE, values: [batch, this.leaseMs()] });
      for (const result of await this.attempt(rows)) attempts[result.state] += 1;
      if (rows.length < batch) return attempts;
    }
  }

  /** Milliseconds until the earliest pending notice is due (0: now), or undefined when none is pending. */
  async nextDueInMs(): Promise<number | undefined> {
    const { rows } = await this.pool.query<{ ms: string | null }>(`select extract(epoch from (min(next_attempt_at) - now())) * 1000 as ms from notices where state = 'pending'`);
    const ms = rows[0]?.ms;
    return ms === null || ms === undefined ? undefined : Math.max(0, Math.ceil(Number(ms)));
  }

  /** Posts leased notices at once, then records every attempt in one statement. */
  private async attempt(leased: readonly LeasedNotice[]): Promise<DeliveryResult[]> {
    if (leased.length === 0) return [];
    // One deadline for the batch: every attempt in it ends within timeoutMs, so a slow receiver holds no drain up.
    const deadline = AbortSignal.timeout(this.webhook.timeoutMs);
    // undici listens on it once per request in flight: a batch may hold more than Node's leak warning expects.
    setMaxListeners(defaultMaxListeners + leased.length, deadline);
    const posted = await Promise.all(leased.map((notice) => postNotice(this.webhook, notice.id, notice.body, deadline)));
    const outcomes = leased.map((notice, index) => this.outcomeOf(notice, posted[index]!));
    const values = [
      outcomes.map((o) => o.id),
      outcomes.map((o) => o.attempt.httpStatus),
      outcomes.map((o) => o.attempt.latencyMs),
      outcomes.map((o) => o.attempt.error),
      outcomes.map((o) => o.state),
      outcomes.map((o) => o.attempts),
      outcomes.map((o) => (o.state === 'pending' ? o.delayMs : 0)),
    ];
    await this.pool.query({ name: 'feedsync_notice_attempts_v1', text: RECORD_ATTEMPTS, values });
    return outcomes.map(({ id, state, attempt, attempts, delayMs, ageMs, runId }) => {
      this.onAttempt?.(state === 'pending' ? 'failed' : state);
      const context = { noticeId: id, runId, attempt: attempts };
      if (state === 'exhausted') this.logger.error({ ...context, error: attempt.error, ageMs }, 'notice exhausted: giving up delivery');
      else if (state === 'pending') this.logger.warn({ ...context, error: attempt.error, httpStatus: attempt.httpStatus, retryInMs: delayMs }, 'notice delivery failed; will retry');
      else this.logger.info({ ...context, httpStatus: attempt.httpStatus, latencyMs: attempt.latencyMs }, 'notice delivered');
      return { id, state, attempt };
    });
  }

  /** What an attempt makes of a notice: its new state and, if still pending, when to try again. */
  private outcomeOf(notice: LeasedNotice, attempt: DeliveryAttempt) {
    const attempts = notice.attempts + 1;
    const ageMs = Date.now() - notice.created_at.getTime();
    // A receiver's Retry-After is honoured within bounds: never a tight loop, never past the give-up age.
    const delayMs = attempt.retryAfterMs === undefined ? this.scheduledDelay(attempts) : Math.min(Math.max(attempt.retryAfterMs, MIN_RETRY_AFTER_MS), this.webhook.giveUpAfterMs);
    let state: NoticeState = 'pending';
    if (attempt.delivered) state = 'delivered';
    else if (attempt.gone || ageMs + delayMs > this.webhook.giveUpAfterMs) state = 'exhausted';
    return { id: notice.id, runId: notice.run_id, attempt, attempts, ageMs, delayMs, state };
  }

  /** How long a sender holds leased notices before another may try them: longer than any attempt. */
  private leaseMs(): number {
    return this.webhook.timeoutMs + LEASE_MARGIN_MS;
  }

  async list(limit = 50): Promise<NoticeRow[]> {
    return this.db
      .select({
        id: notices.id,
        runId: notices.runId,
        type: notices.type,
        state: notices.state,
        attempts: notices.attempts,
        createdAt: notices.createdAt,
        deliveredAt: notices.deliveredAt,
        nextAttemptAt: notices.nextAttemptAt,
        lastError: notices.lastError,
      })
      .from(notices)
      .orderBy(desc(notices.createdAt))
      .limit(limit);
  }

  /** Makes a notice (in any state) due again now: a manual replay. */
  async redeliver(id: string): Promise<boolean> {
    const updated = await this.db.update(notices).set({ state: 'pending', nextAttemptAt: sql`now()` }).where(eq(notices.id, id)).returning({ id: notices.id });
    return updated.length > 0;
  }

  private scheduledDelay(attempts: number): number {
    const schedule = this.webhook.retryScheduleMs;
    const base = schedule[Math.min(attempts - 1, schedule.length - 1)]!;
    return Math.round(base * (0.8 + 0.4 * this.random()));
  }
}
