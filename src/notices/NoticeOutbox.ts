import { and, desc, eq, lte, sql } from 'drizzle-orm';
import type { WebhookConfig } from '../config/schema.js';
import type { Logger } from '../observability/logger.js';
import type { Database } from '../storage/database.js';
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

/**
 * The outbox of completion notices. Delivery leases a due notice, posts it, records the
 * attempt, and schedules the next one (jittered; Retry-After honoured) until delivered or too
 * old. A failed delivery never touches the run it reports.
 */
export class NoticeOutbox {
  constructor(
    private readonly db: Database,
    private readonly webhook: WebhookConfig,
    private readonly logger: Logger,
    private readonly random: () => number = Math.random,
    private readonly onAttempt?: (result: 'delivered' | 'failed' | 'exhausted') => void,
  ) {}

  /** Delivers one notice if it is pending and due; undefined when it is not (or leased elsewhere). */
  async deliver(id: string): Promise<DeliveryResult | undefined> {
    const leaseMs = this.webhook.timeoutMs + LEASE_MARGIN_MS;
    const [leased] = await this.db
      .update(notices)
      .set({ nextAttemptAt: sql`now() + ${`${leaseMs} milliseconds`}::interval` })
      .where(and(eq(notices.id, id), eq(notices.state, 'pending'), lte(notices.nextAttemptAt, sql`now()`)))
      .returning();
    if (!leased) return undefined;
    const attempt = await postNotice(this.webhook, leased.id, leased.body);
    const attempts = leased.attempts + 1;
    const ageMs = Date.now() - leased.createdAt.getTime();
    // A receiver's Retry-After is honoured within bounds: never a tight loop, never past the give-up age.
    const delayMs = attempt.retryAfterMs === undefined ? this.scheduledDelay(attempts) : Math.min(Math.max(attempt.retryAfterMs, MIN_RETRY_AFTER_MS), this.webhook.giveUpAfterMs);
    let state: NoticeState = 'pending';
    if (attempt.delivered) state = 'delivered';
    else if (attempt.gone || ageMs + delayMs > this.webhook.giveUpAfterMs) state = 'exhausted';
    // One statement, atomic on its own: the attempt and the notice's new state in one round trip.
    const nextAttemptAt = state === 'pending' ? sql`now() + ${`${delayMs} milliseconds`}::interval` : sql`now()`;
    await this.db.execute(sql`
      with attempt as (
        insert into notice_attempts (notice_id, http_status, latency_ms, error) values (${id}, ${attempt.httpStatus}, ${attempt.latencyMs}, ${attempt.error})
      )
      update notices set state = ${state}, attempts = ${attempts}, last_error = ${attempt.error},
        delivered_at = ${attempt.delivered ? sql`now()` : sql`null`}, next_attempt_at = ${nextAttemptAt}
      where id = ${id}`);
    this.onAttempt?.(state === 'pending' ? 'failed' : state);
    const log = this.logger.child({ noticeId: id, runId: leased.runId, attempt: attempts });
    if (state === 'exhausted') log.error({ error: attempt.error, ageMs }, 'notice exhausted: giving up delivery');
    else if (state === 'pending') log.warn({ error: attempt.error, httpStatus: attempt.httpStatus, retryInMs: delayMs }, 'notice delivery failed; will retry');
    else log.info({ httpStatus: attempt.httpStatus, latencyMs: attempt.latencyMs }, 'notice delivered');
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
