import { createHash, randomUUID } from 'node:crypto';
import pg from 'pg';
import { walkTxPages, type TxQuery } from './txPages.js';
import { RECORDS_CONFLICT } from '../../src/storage/records/keyDigest.js';

export interface NaiveLoop {
  pages: number;
  records: number;
  seconds: number;
  recordsPerS: number;
}

/**
 * The loop one writes first: fetch a page, then one `INSERT … ON CONFLICT` per record
 * (autocommit), into a table shaped like `records`. Fetching is timed too.
 */
export async function measureNaiveLoop(databaseUrl: string, query: TxQuery): Promise<NaiveLoop> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'feedsync-bench-naive' });
  await client.connect();
  const runId = randomUUID();
  try {
    await client.query('drop table if exists bench_naive');
    await client.query('create table bench_naive (like records including all)');
    const started = performance.now();
    const totals = await walkTxPages(query, async (page) => {
      for (const record of page.records) {
        const payload = JSON.stringify(record);
        await client.query(
          `insert into bench_naive as r (source, kind, key, payload, content_hash, first_seen_run_id, last_changed_run_id)
           values ('explorer', 'transaction', $1, $2::jsonb, $3, $4::uuid, $4::uuid)
           on conflict ${RECORDS_CONFLICT} do update
             set payload = excluded.payload, content_hash = excluded.content_hash, last_changed_run_id = excluded.last_changed_run_id, changed_at = now()
             where r.content_hash <> excluded.content_hash`,
          [record.hash, payload, createHash('sha1').update(payload).digest('base64'), runId],
        );
      }
    });
    const seconds = (performance.now() - started) / 1000;
    return { pages: totals.pages, records: totals.records, seconds, recordsPerS: totals.records / seconds };
  } finally {
    await client.query('drop table if exists bench_naive').catch(() => undefined);
    await client.end();
  }
}
