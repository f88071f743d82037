import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * One tick of a job: a schedule's firing, an `enqueue` or a `feedsync run`, with one run per query
 * (per value for a fan-out query). Its counters move in the transaction that ends each of its
 * runs; the one that ends the last also ends the tick and queues its notice.
 */
export const jobTicks = pgTable(
  'job_ticks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Idempotency key: one tick per (job, scheduled time), or per manual request. */
    tickKey: text('tick_key').notNull(),
    job: text('job').notNull(),
    trigger: text('trigger', { enum: ['schedule', 'enqueue', 'run', 'replay'] }).notNull(),
    scheduledFor: timestamp('scheduled_for', { withTimezone: true }),
    status: text('status', { enum: ['running', 'succeeded', 'partial', 'failed'] }).notNull().default('running'),
    /** Runs the tick is made of, skipped ones included. */
    runsTotal: integer('runs_total').notNull(),
    /** Runs that have ended: succeeded, partial, failed for good, or skipped (the previous run of their query still running). */
    runsDone: integer('runs_done').notNull().default(0),
    runsSucceeded: integer('runs_succeeded').notNull().default(0),
    runsFailed: integer('runs_failed').notNull().default(0),
    /** Runs that ended with part of their data: stopped at maxPages, at a stuck window, or short of the stated total. */
    runsPartial: integer('runs_partial').notNull().default(0),
    runsSkipped: integer('runs_skipped').notNull().default(0),
    recordsNew: bigint('records_new', { mode: 'number' }).notNull().default(0),
    recordsUpdated: bigint('records_updated', { mode: 'number' }).notNull().default(0),
    recordsUnchanged: bigint('records_unchanged', { mode: 'number' }).notNull().default(0),
    /** Records its runs could not store, kept in dead_letters (records.onInvalid: skip). */
    recordsSkipped: bigint('records_skipped', { mode: 'number' }).notNull().default(0),
    /** Why the tick could not queue its runs (a fan-out field no stored record has). */
    error: text('error'),
    /** The W3C trace context of the tick's span, which its notice's delivery continues; null while tracing is off. */
    traceparent: text('traceparent'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('job_ticks_tick_key_idx').on(table.tickKey),
    index('job_ticks_job_started_idx').on(table.job, table.startedAt),
    check('job_ticks_status_check', sql`${table.status} in ('running', 'succeeded', 'partial', 'failed')`),
  ],
);

/** One row a sync run: one configured query against one source, paged to the end. */
export const syncRuns = pgTable(
  'sync_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Idempotency key: one run per (job, query, scheduled time), or per manual request. */
    runKey: text('run_key').notNull(),
    job: text('job').notNull(),
    source: text('source').notNull(),
    queryIndex: integer('query_index').notNull(),
    queryKey: text('query_key').notNull(),
    /** The query as sent (q and params), never the key. */
    query: jsonb('query').notNull(),
    /** The tick the run belongs to; null for runs from before ticks. */
    tickId: uuid('tick_id').references(() => jobTicks.id, { onDelete: 'set null' }),
    /** A fan-out query's value for this run. */
    fanValue: text('fan_value'),
    /**
     * `queued`: created with its tick, not taken up by a worker yet.
     * `interrupted`: stopped by a shutdown after a stored page, waiting in the queue to resume.
     * `retrying`: failed with attempts left, waiting in the queue for its next. `failed` is final.
     * `partial`: final, ended with part of the data (stop_reason and error say why).
     */
    status: text('status', { enum: ['queued', 'running', 'interrupted', 'retrying', 'succeeded', 'partial', 'failed'] }).notNull().default('running'),
    attempt: integer('attempt').notNull().default(1),
    /** Times the run's worker crashed mid-run (BullMQ found its job stalled), counted apart from attempts. */
    crashes: integer('crashes').notNull().default(0),
    scheduledFor: timestamp('scheduled_for', { withTimezone: true }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    pages: integer('pages').notNull().default(0),
    recordsNew: integer('records_new').notNull().default(0),
    recordsUpdated: integer('records_updated').notNull().default(0),
    recordsUnchanged: integer('records_unchanged').notNull().default(0),
    /** Records Postgres could not take, left out of `records` and kept in `dead_letters` (records.onInvalid: skip). */
    recordsSkipped: integer('records_skipped').notNull().default(0),
    /** Records left out because a later record of the same page had the same key. */
    recordsCollapsed: integer('records_collapsed').notNull().default(0),
    /** NUL characters removed from record payloads: jsonb cannot hold U+0000. */
    nulCharsRemoved: integer('nul_chars_removed').notNull().default(0),
    /** Records left out by the query's `records.skip` conditions (Last.fm's "now playing" track). */
    recordsFiltered: integer('records_filtered').notNull().default(0),
    /** Records a complete full_refresh run marked deleted: returned before, not any more. */
    recordsDeleted: integer('records_deleted').notNull().default(0),
    /** What the upstream said beside data it sent (Etherscan's throttled key), each once: the run still gets everything. */
    warnings: text('warnings').array().notNull().default(sql`'{}'::text[]`),
    /** The OpenTelemetry trace of the run's latest attempt (32 hex digits); null while tracing is off. */
    traceId: text('trace_id'),
    /** Paging position after the last stored page; a retried run resumes from it. */
    checkpoint: jsonb('checkpoint'),
    /** Highest incremental field value stored by this run. */
    cursorValue: text('cursor_value'),
    stopReason: text('stop_reason'),
    errorKind: text('error_kind'),
    error: text('error'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Whether the run's end has been added to its tick's counts (countTickRuns): each end is counted once, by whichever process comes first. */
    tickCounted: boolean('tick_counted').notNull().default(false),
  },
  (table) => [
    uniqueIndex('sync_runs_run_key_idx').on(table.runKey),
    // The ended runs of a tick not counted to it yet: a handful, found without reading the tick's thousands of others.
    index('sync_runs_uncounted_idx')
      .on(table.tickId)
      .where(sql`not ${table.tickCounted} and ${table.tickId} is not null and ${table.status} in ('succeeded', 'partial', 'failed')`),
    index('sync_runs_job_started_idx').on(table.job, table.startedAt),
    // The history page's runs of a job with one status, newest first.
    index('sync_runs_job_status_started_idx').on(table.job, table.status, table.startedAt),
    // The overlap check looks for the few unfinished runs of a query among all its runs ever.
    index('sync_runs_unfinished_query_idx').on(table.job, table.queryKey).where(sql`${table.status} in ('queued', 'running', 'interrupted', 'retrying')`),
    // The reconciler's look for unfinished runs whose queue job may be gone, oldest first.
    index('sync_runs_unfinished_updated_idx').on(table.updatedAt).where(sql`${table.status} in ('queued', 'running', 'interrupted', 'retrying')`),
    // A tick's failed runs, for its notice; and its runs for status.
    index('sync_runs_tick_idx').on(table.tickId, table.status),
    check('sync_runs_status_check', sql`${table.status} in ('queued', 'running', 'interrupted', 'retrying', 'succeeded', 'partial', 'failed')`),
  ],
);
