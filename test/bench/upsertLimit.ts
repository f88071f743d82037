import { createHash, randomUUID } from 'node:crypto';
import pg from 'pg';
import { copyRows, inTransaction } from './copyRows.js';
import { walkTxPages, type TxQuery, type TxRecord } from './txPages.js';
import { RECORDS_CONFLICT } from '../../src/storage/records/keyDigest.js';

export type UpsertMethod = 'multiRow' | 'unnest' | 'unnestLines' | 'copy';

export interface UpsertLimit {
  records: number;
  /** Records per statement: one page, as feedsync upserts them. */
  batch: number;
  /** Records/s of each method, counting only the time spent upserting (fetching is not timed). */
  perMethod: Record<UpsertMethod, number>;
  best: UpsertMethod;
  bestPerS: number;
}

const SOURCE = 'explorer';
const KIND = 'transaction';
const CONFLICT = `on conflict ${RECORDS_CONFLICT} do update
  set payload = excluded.payload, content_hash = excluded.content_hash, last_changed_run_id = excluded.last_changed_run_id, changed_at = now()
  where r.content_hash <> excluded.content_hash`;

interface Rows {
  keys: string[];
  payloads: string[];
  hashes: string[];
}

/** What any upsert of these records pays in the client: serialise and hash each one. */
function serialise(records: readonly TxRecord[]): Rows {
  const rows: Rows = { keys: [], payloads: [], hashes: [] };
  for (const record of records) {
    const payload = JSON.stringify(record);
    rows.keys.push(record.hash);
    rows.payloads.push(payload);
    rows.hashes.push(createHash('sha1').update(payload).digest('base64'));
  }
  return rows;
}

type Upsert = (client: pg.Client, table: string, runId: string, records: readonly TxRecord[]) => Promise<void>;

const multiRow: Upsert = async (client, table, runId, records) => {
  const { keys, payloads, hashes } = serialise(records);
  const values: unknown[] = [SOURCE, KIND, runId];
  const tuples = keys.map((key, index) => {
    values.push(key, payloads[index], hashes[index]);
    const at = 4 + index * 3;
    return `($1, $2, $${at}, $${at + 1}::jsonb, $${at + 2}, $3::uuid, $3::uuid)`;
  });
  await client.query(
    `insert into ${table} as r (source, kind, key, payload, content_hash, first_seen_run_id, last_changed_run_id) values ${tuples.join(', ')} ${CONFLICT}`,
    values,
  );
};

const unnest: Upsert = async (client, table, runId, records) => {
  const { keys, payloads, hashes } = serialise(records);
  await client.query(
    `insert into ${table} as r (source, kind, key, payload, content_hash, first_seen_run_id, last_changed_run_id)
     select $1, $2, t.key, t.payload::jsonb, t.hash, $3::uuid, $3::uuid
     from unnest($4::text[], $5::text[], $6::text[]) as t(key, payload, hash) ${CONFLICT}`,
    [SOURCE, KIND, runId, keys, payloads, hashes],
  );
};

/** unnest for keys and hashes; the payloads as one text, one JSON document a line (JSON.stringify never writes a raw newline). */
const unnestLines: Upsert = async (client, table, runId, records) => {
  const { keys, payloads, hashes } = serialise(records);
  await client.query(
    `insert into ${table} as r (source, kind, key, payload, content_hash, first_seen_run_id, last_changed_run_id)
     select $1, $2, t.key, t.payload::jsonb, t.hash, $3::uuid, $3::uuid
     from rows from (unnest($4::text[]), unnest($5::text[]), string_to_table($6::text, E'\\n')) as t(key, hash, payload) ${CONFLICT}`,
    [SOURCE, KIND, runId, keys, hashes, payloads.join('\n')],
  );
};

const copy: Upsert = async (client, table, runId, records) => {
  const { keys, payloads, hashes } = serialise(records);
  await inTransaction(client, async () => {
    await copyRows(client, 'bench_upsert_staging (key, payload, hash)', [keys, payloads, hashes]);
    await client.query(
      `insert into ${table} as r (source, kind, key, payload, content_hash, first_seen_run_id, last_changed_run_id)
       select $1, $2, s.key, s.payload::jsonb, s.hash, $3::uuid, $3::uuid from bench_upsert_staging s ${CONFLICT}`,
      [SOURCE, KIND, runId],
    );
  });
};

const METHODS: Record<UpsertMethod, Upsert> = { multiRow, unnest, unnestLines, copy };

/**
 * The storage ceiling: the query's records upserted page by page into tables shaped like
 * `records` (same columns, primary key and defaults), by four methods side by side — a
 * multi-row `INSERT … VALUES`, `INSERT … SELECT FROM unnest(…)` of text arrays, the same with
 * the payloads as one newline-separated text (what feedsync sends), and COPY into a staging
 * table then `INSERT … SELECT`. Each page is fetched once (untimed) and upserted by every method, in
 * rotating order, each on its own connection and table.
 */
export async function measureUpsert(databaseUrl: string, query: TxQuery): Promise<UpsertLimit> {
  const methods = Object.keys(METHODS) as UpsertMethod[];
  const clients = new Map<UpsertMethod, pg.Client>();
  const seconds = Object.fromEntries(methods.map((method) => [method, 0])) as Record<UpsertMethod, number>;
  const runId = randomUUID();
  try {
    for (const method of methods) {
      const client = new pg.Client({ connectionString: databaseUrl, application_name: `feedsync-bench-upsert-${method}` });
      await client.connect();
      clients.set(method, client);
      await client.query(`drop table if exists bench_upsert_${method}`);
      await client.query(`create table bench_upsert_${method} (like records including all)`);
    }
    await clients.get('copy')!.query('create temp table bench_upsert_staging (key text, payload text, hash text) on commit delete rows');
    let turn = 0;
    const totals = await walkTxPages(query, async (page) => {
      // A page holding only the overlap of a slid window has nothing new.
      if (page.records.length === 0) return;
      for (let index = 0; index < methods.length; index++) {
        const method = methods[(turn + index) % methods.length]!;
        const started = performance.now();
        await METHODS[method](clients.get(method)!, `bench_upsert_${method}`, runId, page.records);
        seconds[method] += (performance.now() - started) / 1000;
      }
      turn++;
    });
    for (const method of methods) {
      const { rows } = await clients.get(method)!.query<{ n: string }>(`select count(*) as n from bench_upsert_${method}`);
      if (Number(rows[0]?.n) !== totals.records) throw new Error(`${method} stored ${rows[0]?.n} records of ${totals.records}`);
    }
    const perMethod = Object.fromEntries(methods.map((method) => [method, totals.records / seconds[method]])) as Record<UpsertMethod, number>;
    const best = methods.reduce((a, b) => (perMethod[b] > perMethod[a] ? b : a));
    return { records: totals.records, batch: query.limit, perMethod, best, bestPerS: perMethod[best] };
  } finally {
    for (const [method, client] of clients) {
      // Dropped at once, so that autovacuum of these tables does not run during later measurements.
      await client.query(`drop table if exists bench_upsert_${method}`).catch(() => undefined);
      await client.end().catch(() => undefined);
    }
  }
}
