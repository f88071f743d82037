import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, jsonb, pgSequence, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { syncRuns } from './runTables.js';

/** Numbers every insert, change and deletion of a record: the change feed's position (see takeChangeTicket, readChangeHorizon). */
export const recordsChangeSeq = pgSequence('records_change_seq');

/**
 * The analytics feed: the latest payload of every record. An unchanged record is never
 * rewritten, so `last_changed_run_id` is the last run that brought a new payload.
 *
 * Partitioned by kind (migration 0019, which Drizzle's schema cannot say): a partition a kind,
 * `records_of_<kind>`, made by `migrate` and by a starting worker (makeKindPartitions), and
 * `records_default` for a kind without one.
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
  (table) => [
    // Key first: every lookup gives all three, and at random keys an insert's descent then compares one column, not three.
    // Its name is the one it had in (source, kind, key) order: a worker of the release before, still running while the first new one migrates, knows its violations by that name.
    primaryKey({ name: 'records_source_kind_key_pk', columns: [table.key, table.source, table.kind] }),
    // With INCLUDE (last_changed_run_id) since migration 0021, which Drizzle's schema cannot say: a page's proof is counted from the index alone (see storeProvenPage).
    index('records_kind_change_seq_idx').on(table.kind, table.changeSeq),
  ],
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

/**
 * The (source, kind) pairs whose rows were stored before composite keys escaped their parts
 * (migration 0017) and may hold a key written otherwise now: a starting worker rekeys them from
 * their payloads by the config's key (rekeyCompositeKeys), then removes the pair.
 */
export const compositeKeyRekeys = pgTable('composite_key_rekeys', {
  source: text('source').notNull(),
  kind: text('kind').notNull(),
}, (table) => [primaryKey({ columns: [table.source, table.kind] })]);
