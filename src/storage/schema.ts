import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, json, jsonb, pgSequence, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

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
    /** Why the tick could not queue its runs (a fan-out field no stored record has). */
    error: text('error'),
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
    /** Paging position after the last stored page; a retried run resumes from it. */
    checkpoint: jsonb('checkpoint'),
    /** Highest incremental field value stored by this run. */
    cursorValue: text('cursor_value'),
    stopReason: text('stop_reason'),
    errorKind: text('error_kind'),
    error: text('error'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('sync_runs_run_key_idx').on(table.runKey),
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

/**
 * Page bodies exactly as received (but for a configured secret an upstream echoed), each stored
 * once however many runs received it: a re-sync of unchanged data adds envelope rows, not pages.
 * `json`, not `jsonb`: it keeps the bytes (a `\u0000` escape, a number beyond 2^53), and
 * validating text costs Postgres a fraction of building jsonb from a page of a thousand records.
 */
export const pageBodies = pgTable('page_bodies', {
  /** sha256 of the body, hex. */
  contentHash: text('content_hash').primaryKey(),
  body: json('body').notNull(),
  bytes: integer('bytes').notNull(),
  storedAt: timestamp('stored_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Each page a run received: where and when, and its body by hash. */
export const envelopes = pgTable(
  'envelopes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    runId: uuid('run_id')
      .notNull()
      .references(() => syncRuns.id, { onDelete: 'cascade' }),
    /** 1-based position of the page in its run. */
    pageSeq: integer('page_seq').notNull(),
    requestUrl: text('request_url').notNull(),
    status: text('status').notNull(),
    message: text('message').notNull(),
    bytes: integer('bytes').notNull(),
    /** The body, in page_bodies; a body is removed only once no envelope refers to it. */
    contentHash: text('content_hash')
      .notNull()
      .references(() => pageBodies.contentHash),
    /** From the request sent to the body read, in ms; null for pages stored before it was kept. */
    latencyMs: integer('latency_ms'),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * What proves, later, that the page's records are still as this body gives them (see
     * storeProvenPage): either the change_seq range its statement drew for all of them (from..to,
     * `proof_records` rows), or (from null) the kind's highest change_seq when it found all of
     * them unchanged. Null: no proof (a page with changed and unchanged records, or anomalies).
     */
    proofSeqFrom: bigint('proof_seq_from', { mode: 'bigint' }),
    proofSeqTo: bigint('proof_seq_to', { mode: 'bigint' }),
    proofRecords: integer('proof_records'),
    /** Of the config that turns a body into records (see recordsDerivation): a proof holds only under the same one. */
    proofDerivation: text('proof_derivation'),
  },
  (table) => [
    uniqueIndex('envelopes_run_page_idx').on(table.runId, table.pageSeq),
    // Whether a body is still referred to: for pruning, and for the foreign key's check when one is removed.
    index('envelopes_content_hash_idx').on(table.contentHash),
  ],
);

/** Numbers every insert, change and deletion of a record, in commit order (see CHANGE_ORDER): the change feed's position. */
export const recordsChangeSeq = pgSequence('records_change_seq');

/**
 * The analytics feed: the latest payload of every record. An unchanged record is never
 * rewritten, so `last_changed_run_id` is the last run that brought a new payload.
 */
export const records = pgTable(
  'records',
  {
    source: text('source').notNull(),
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    payload: jsonb('payload').notNull(),
    contentHash: text('content_hash').notNull(),
    firstSeenRunId: uuid('first_seen_run_id').notNull(),
    lastChangedRunId: uuid('last_changed_run_id').notNull(),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set when a complete run of a full_refresh query no longer returned it; cleared when one returns it again. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** Its last insert, change or deletion's number: a loader reads `where change_seq > $last`. */
    changeSeq: bigint('change_seq', { mode: 'bigint' })
      .notNull()
      .default(sql`nextval('records_change_seq')`),
  },
  (table) => [primaryKey({ columns: [table.source, table.kind, table.key] }), index('records_kind_change_seq_idx').on(table.kind, table.changeSeq)],
);

/** Every version of the records of append-mode queries: the one in force has no valid_to. */
export const recordVersions = pgTable(
  'record_versions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    source: text('source').notNull(),
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    payload: jsonb('payload').notNull(),
    contentHash: text('content_hash').notNull(),
    changeSeq: bigint('change_seq', { mode: 'bigint' }).notNull(),
    runId: uuid('run_id').notNull(),
    validFrom: timestamp('valid_from', { withTimezone: true }).notNull().defaultNow(),
    validTo: timestamp('valid_to', { withTimezone: true }),
  },
  (table) => [
    // Not unique: one statement closes the version in force and inserts the next, in an order the executor chooses.
    index('record_versions_current_idx').on(table.source, table.kind, table.key).where(sql`${table.validTo} is null`),
    index('record_versions_kind_key_idx').on(table.kind, table.key, table.validFrom),
  ],
);

/**
 * The keys each full_refresh query (scope: job and query key) returned, with the run that last
 * returned each: when a run completes, its scope's keys of other runs are the records it no
 * longer returned.
 */
export const fullRefreshKeys = pgTable(
  'full_refresh_keys',
  {
    scope: text('scope').notNull(),
    source: text('source').notNull(),
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    runId: uuid('run_id').notNull(),
  },
  (table) => [primaryKey({ columns: [table.scope, table.source, table.kind, table.key] })],
);

/** Per (job, query): the highest incremental field value stored by a successful run. */
export const incrementalCursors = pgTable(
  'incremental_cursors',
  {
    job: text('job').notNull(),
    queryKey: text('query_key').notNull(),
    field: text('field').notNull(),
    value: text('value').notNull(),
    runId: uuid('run_id').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.job, table.queryKey] })],
);

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

/** Records a run could not store (records.onInvalid: skip), with why and their JSON text. */
export const deadLetters = pgTable(
  'dead_letters',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    runId: uuid('run_id')
      .notNull()
      .references(() => syncRuns.id, { onDelete: 'cascade' }),
    pageSeq: integer('page_seq').notNull(),
    /** The record's position in its page. */
    recordIndex: integer('record_index').notNull(),
    /** Its key, with any NUL written as U+FFFD (text cannot hold U+0000). */
    key: text('key').notNull(),
    reason: text('reason').notNull(),
    /** Its JSON text; null when it could not be written (nested too deep). */
    raw: text('raw'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('dead_letters_run_idx').on(table.runId, table.pageSeq)],
);
