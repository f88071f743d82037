import { and, desc, eq, lte, sql } from 'drizzle-orm';
import type { WebhookConfig } from '../config/schema.js';
import type { Logger } from '../observability/logger.js';
import type pg from 'pg';
import { poolOf, type Database } from '../storage/database.js';
import { notices } from '../storage/schema.js';
import { postNotice, type DeliveryAttempt } from './postNotice.js';

export type NoticeState = 'pending' | 'delivered' | 'exhausted';

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

/** How long a sender holds a notice before another may try it: longer than any attempt. */
const LEASE_MARGIN_MS = 10_000;
const MIN_RETRY_AFTER_MS = 1_000;

/** LEASE: $1 notice id, $2 lease in ms. Takes a pending notice that is due, for one attempt. */
const LEASE = `update notices set next_attempt_at = now() + $2::int * interval '1 millisecond'
    where id = $1::text and state = 'pending' and next_attempt_at <= now()
    returning id, run_id, body, attempts, created_at`;

interface LeasedNotice {
  id: string;
  run_id: string;
  body: string;
  attempts: number;
  created_at: Date;
}

/**
 * RECORD_ATTEMPT: $1 notice id, $2 HTTP status, $3 latency, $4 error, $5 new state, $6 attempts,
 * $7 ms to the next attempt. The attempt and the notice's new state in one statement.
 */
const RECORD_ATTEMPT = `with attempt as (
      insert into notice_attempts (notice_id, http_status, latency_ms, error) values ($1::text, $2::int, $3::int, $4::text)
    )
    update notices set state = $5::text, attempts = $6::int, last_error = $4::text,
      delivered_at = case when $5::text = 'delivered' then now() end,
      next_attempt_at = now() + $7::int * interval '1 millisecond'
    where id = $1::text`;

/**
 * The outbox of completion notices. Delivery leases a due notice, posts it, records the
 * attempt, and schedules the next one (jittered; Retry-After honoured) until delivered or too
 * old. A failed delivery never touches the run it reports.
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
    const leaseMs = this.webhook.timeoutMs + LEASE_MARGIN_MS;
    const { rows } = await this.pool.query<LeasedNotice>({ name: 'feedsync_notice_lease_v1', text: LEASE, values: [id, leaseMs] });
    const leased = rows[0];
    if (!leased) return undefined;
    const attempt = await postNotice(this.webhook, leased.id, leased.body);
    const attempts = leased.attempts + 1;
    const ageMs = Date.now() - leased.created_at.getTime();
    // A receiver's Retry-After is honoured within bounds: never a tight loop, never past the give-up age.
    const delayMs = attempt.retryAfterMs === undefined ? this.scheduledDelay(attempts) : Math.min(Math.max(attempt.retryAfterMs, MIN_RETRY_AFTER_MS), this.webhook.giveUpAfterMs);
    let state: NoticeState = 'pending';
    if (attempt.delivered) state = 'delivered';
    else if (attempt.gone || ageMs + delayMs > this.webhook.giveUpAfterMs) state = 'exhausted';
    const values = [id, attempt.httpStatus, attempt.latencyMs, attempt.error, state, attempts, state === 'pending' ? delayMs : 0];
    await this.pool.query({ name: 'feedsync_notice_attempt_v1', text: RECORD_ATTEMPT, values });
    this.onAttempt?.(state === 'pending' ? 'failed' : state);
    const context = { noticeId: id, runId: leased.run_id, attempt: attempts };
    if (state === 'exhausted') this.logger.error({ ...context, error: attempt.error, ageMs }, 'notice exhausted: giving up delivery');
    else if (state === 'pending') this.logger.warn({ ...context, error: attempt.error, httpStatus: attempt.httpStatus, retryInMs: delayMs }, 'notice delivery failed; will retry');
    else this.logger.info({ ...context, httpStatus: attempt.httpStatus, latencyMs: attempt.latencyMs }, 'notice delivered');
    return { id, state, attempt };
  }

  /** Ids of pending notices due now, oldest first. */
  async due(limit = 100): Promise<string[]> {
    const rows = await this.db
      .select({ id: notices.id })
      .from(notices)
      .where(and(eq(notices.state, 'pending'), lte(notices.nextAttemptAt, sql`now()`)))
      .orderBy(notices.nextAttemptAt)
      .limit(limit);
    return rows.map((row) => row.id);
  }

  /** Milliseconds until this notice's next attempt, or undefined when it is not pending. */
  async nextDueInMs(id: string): Promise<number | undefined> {
    const [row] = await this.db
      .select({ ms: sql<string>`greatest(0, extract(epoch from (${notices.nextAttemptAt} - now())) * 1000)` })
      .from(notices)
      .where(and(eq(notices.id, id), eq(notices.state, 'pending')));
    return row ? Math.ceil(Number(row.ms)) : undefined;
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
