import type pg from 'pg';
import type { CeilingTables } from './ceilingTables.js';
import { copyRows, inTransaction } from './copyRows.js';
import type { PreparedTxPage } from './txPagesAhead.js';

/** The bulk methods the ceiling stores a page by; the faster one on this machine is its figure. */
export type CeilingStoreMethod = 'copy' | 'unnestLines';

/** Stores one page (records, envelope, body) on a connection given to it alone. */
export type StoreCeilingPage = (client: pg.Client, page: PreparedTxPage) => Promise<void>;

const SOURCE = 'explorer';
const KIND = 'transaction';

/**
 * The page's body (unless stored already), its envelope, and its records inserted as feedsync
 * stores a first sync's (a plain insert: the tables start empty, and a page holds no record an
 * earlier page did, txPagesAhead dropping a window's overlap), in one
 * statement; the records come from `recordsFrom`, as (key, hash, payload). Left out, as the
 * issue's ceiling has it: feedsync's run row (its claim lock, checkpoint and counters, moved page
 * by page, which makes feedsync store a run's pages one at a time) and its change ticket; a page
 * of one connection here never waits for another's.
 */
function storePageSql(schema: string, recordsFrom: string): string {
  return `with body as (
      insert into ${schema}.page_bodies (content_hash, body, bytes) values ($1::text, $2::text::json, $3::int)
      on conflict (content_hash) do nothing
    ),
    envelope as (
      insert into ${schema}.envelopes (run_id, page_seq, request_url, status, message, bytes, content_hash, latency_ms)
      values ($4::uuid, $5::int, $6::text, $7::text, $8::text, $3::int, $1::text, $9::int)
    )
    insert into ${schema}.records (source, kind, key, payload, content_hash, first_seen_run_id, last_changed_run_id)
    select $10::text, $11::text, s.key, s.payload::jsonb, s.hash, $4::uuid, $4::uuid from ${recordsFrom}`;
}

/** The statement's parameters $1..$11: the page's envelope and body, the run, the records' source and kind. */
function pageValues(tables: CeilingTables, page: PreparedTxPage): unknown[] {
  return [page.bodyHash, page.raw, page.bytes, tables.runId, page.seq, page.requestUrl, page.status, page.message, Math.round(page.latencyMs), SOURCE, KIND];
}

/** Each connection's staging table for COPY, emptied at each commit. */
const STAGING = 'create temp table ceiling_staging (key text, hash text, payload text) on commit delete rows';

/** COPY of the records into a staging table, then the page's statement from it, in one transaction. */
function copyStore(tables: CeilingTables): StoreCeilingPage {
  const text = storePageSql(tables.schema, 'ceiling_staging s');
  const staged = new WeakSet<pg.Client>();
  return async (client, page) => {
    if (!staged.has(client)) {
      await client.query(STAGING);
      staged.add(client);
    }
    await inTransaction(client, async () => {
      await copyRows(client, 'ceiling_staging (key, hash, payload)', [page.keys, page.hashes, page.payloads?.toString('utf8').split('\n') ?? []]);
      await client.query({ name: 'ceiling_store_copied', text, values: pageValues(tables, page) });
    });
  };
}

/**
 * The page's statement alone, autocommitted: keys and hashes as text arrays, the payloads as
 * one text of JSON documents a line (JSON.stringify never writes a raw newline), as feedsync sends them.
 */
function unnestLinesStore(tables: CeilingTables): StoreCeilingPage {
  const text = storePageSql(tables.schema, `rows from (unnest($12::text[]), unnest($13::text[]), string_to_table($14::text, E'\\n')) as s(key, hash, payload)`);
  return async (client, page) => {
    await client.query({ name: 'ceiling_store_lines', text, values: [...pageValues(tables, page), page.keys, page.hashes, page.payloads] });
  };
}

export const CEILING_STORES: Record<CeilingStoreMethod, (tables: CeilingTables) => StoreCeilingPage> = { copy: copyStore, unnestLines: unnestLinesStore };
