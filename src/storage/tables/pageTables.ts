import { bigint, bigserial, index, integer, json, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { syncRuns } from './runTables.js';

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
     * `proof_records` rows written as run `proof_run_id`), or (from null) the kind's highest
     * change_seq when it found all of them unchanged. Null: no proof (a page with changed and
     * unchanged records, or anomalies).
     */
    proofSeqFrom: bigint('proof_seq_from', { mode: 'bigint' }),
    proofSeqTo: bigint('proof_seq_to', { mode: 'bigint' }),
    proofRecords: integer('proof_records'),
    /** The run the range's records were written as; null for a proof from before it was kept (drawn under a lock, the range was the page's alone). */
    proofRunId: uuid('proof_run_id'),
    /** Of the config that turns a body into records (see recordsDerivation): a proof holds only under the same one. */
    proofDerivation: text('proof_derivation'),
  },
  (table) => [
    uniqueIndex('envelopes_run_page_idx').on(table.runId, table.pageSeq),
    // Whether a body is still referred to: for pruning, and for the foreign key's check when one is removed.
    index('envelopes_content_hash_idx').on(table.contentHash),
  ],
);
