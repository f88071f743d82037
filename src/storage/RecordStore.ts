import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from './database.js';

export interface RecordCounts {
  new: number;
  updated: number;
  unchanged: number;
}

export interface RecordBatch {
  source: string;
  kind: string;
  runId: string;
  keys: readonly string[];
  items: readonly unknown[];
}

/**
 * Upserts a page of records in one statement. A record whose content hash is unchanged is not
 * rewritten (no new row version, no WAL), which is what makes a re-sync cheap.
 */
export async function upsertRecords(db: Pick<Database, 'execute'>, batch: RecordBatch): Promise<RecordCounts> {
  const { keys, payloads, hashes } = serialiseUnique(batch.keys, batch.items);
  if (keys.length === 0) return { new: 0, updated: 0, unchanged: 0 };
  const result = await db.execute<{ inserted: string; updated: string }>(sql`
    with written as (
      insert into records as r (source, kind, key, payload, content_hash, first_seen_run_id, last_changed_run_id)
      select ${batch.source}, ${batch.kind}, t.key, t.payload::jsonb, t.hash, ${batch.runId}::uuid, ${batch.runId}::uuid
      from unnest(${sql.param(keys)}::text[], ${sql.param(payloads)}::text[], ${sql.param(hashes)}::text[]) as t(key, payload, hash)
      on conflict (source, kind, key) do update
        set payload = excluded.payload, content_hash = excluded.content_hash,
            last_changed_run_id = excluded.last_changed_run_id, changed_at = now()
        where r.content_hash <> excluded.content_hash
      returning (xmax = 0) as inserted
    )
    select count(*) filter (where inserted) as inserted, count(*) filter (where not inserted) as updated from written`);
  const row = result.rows[0];
  const inserted = Number(row?.inserted ?? 0);
  const updated = Number(row?.updated ?? 0);
  return { new: inserted, updated, unchanged: keys.length - inserted - updated };
}

/** Serialises and hashes each record; of repeated keys within a page the last wins (one statement cannot touch a row twice). */
function serialiseUnique(keys: readonly string[], items: readonly unknown[]) {
  const count = keys.length;
  const payloads = new Array<string>(count);
  const hashes = new Array<string>(count);
  for (let index = 0; index < count; index++) {
    const payload = JSON.stringify(items[index]);
    payloads[index] = payload;
    hashes[index] = createHash('sha1').update(payload).digest('base64');
  }
  if (new Set(keys).size === count) return { keys: keys as string[], payloads, hashes };
  const last = new Map<string, number>();
  keys.forEach((key, index) => last.set(key, index));
  const picked = [...last.values()].sort((a, b) => a - b);
  return { keys: picked.map((i) => keys[i]!), payloads: picked.map((i) => payloads[i]!), hashes: picked.map((i) => hashes[i]!) };
}
