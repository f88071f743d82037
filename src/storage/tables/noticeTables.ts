import { sql } from 'drizzle-orm';
import { bigserial, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { jobTicks, syncRuns } from './runTables.js';

/** Completion notices, written in the same transaction as the run's final status. */
export const notices = pgTable(
  'notices',
  {
    /** Also the Standard Webhooks `webhook-id`, the same on every attempt. */
    id: text('id').primaryKey(),
    /** What the notice reports: one run, or one job tick. */
    runId: uuid('run_id').references(() => syncRuns.id, { onDelete: 'cascade' }),
    tickId: uuid('tick_id').references(() => jobTicks.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    /** The exact bytes posted, so every attempt sends (and signs) the same body. */
    body: text('body').notNull(),
    /** The W3C trace context the notice was made in (its run's span): each delivery attempt's span continues that trace. */
    traceparent: text('traceparent'),
    state: text('state', { enum: ['pending', 'delivered', 'exhausted'] }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    lastError: text('last_error'),
  },
  (table) => [
    uniqueIndex('notices_run_idx').on(table.runId),
    uniqueIndex('notices_tick_idx').on(table.tickId),
    index('notices_state_next_idx').on(table.state, table.nextAttemptAt),
    check('notices_subject_check', sql`num_nonnulls(${table.runId}, ${table.tickId}) = 1`),
  ],
);

/** Every delivery attempt of a notice. */
export const noticeAttempts = pgTable(
  'notice_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    noticeId: text('notice_id')
      .notNull()
      .references(() => notices.id, { onDelete: 'cascade' }),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull().defaultNow(),
    httpStatus: integer('http_status'),
    latencyMs: integer('latency_ms').notNull(),
    error: text('error'),
  },
  (table) => [index('notice_attempts_notice_idx').on(table.noticeId)],
);
