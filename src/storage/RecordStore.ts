import { hash } from 'node:crypto';

export interface RecordCounts {
  new: number;
  updated: number;
  unchanged: number;
}

/**
 * A page of records ready to send: keys and content hashes as text arrays, and the payloads as
 * one text of JSON documents separated by newlines. JSON.stringify never writes a raw newline
 * (it escapes every control character), so the separator is unambiguous, and neither the client
 * nor Postgres escapes and unescapes a thousand JSON strings as array elements.
 */
export interface SerialisedRecords {
  keys: string[];
  hashes: string[];
  /** Newline-separated JSON documents, in key order; null when there are none. */
  payloads: string | null;
}

/**
 * The upsert of a page of serialised records, as a data-modifying CTE `written` (one row per
 * record written, `inserted` true when new) and the `counts` of what it did. Placeholders are
 * given by the caller, so that the statement can be embedded in a larger one. `guard`, when
 * given, is a condition every write depends on.
 *
 * A record whose content hash is unchanged is never rewritten (no new row version, no WAL):
 * ON CONFLICT's `where` leaves it alone. With `prefilter` (the default) it is moreover filtered
 * out by an index lookup before the insert, so that ON CONFLICT does not row-lock it either
 * (which dirties its page and writes WAL): that is what makes a re-sync cheap. For records that
 * are new the lookup is wasted work, so a caller that expects new records may leave it out.
 */
export function recordUpsertCtes(p: {
  source: string;
  kind: string;
  runId: string;
  keys: string;
  hashes: string;
  payloads: string;
  guard?: string;
  prefilter?: boolean;
}): string {
  const unchanged = `n.hash is distinct from (select c.content_hash from records c where c.source = ${p.source}::text and c.kind = ${p.kind}::text and c.key = n.key)`;
  return `page_records as (
      select * from rows from (unnest(${p.keys}::text[]), unnest(${p.hashes}::text[]), string_to_table(${p.payloads}::text, E'\\n'))
        as t(key, hash, payload)
    ),
    written as (
      insert into records as r (source, kind, key, payload, content_hash, first_seen_run_id, last_changed_run_id)
      select ${p.source}::text, ${p.kind}::text, n.key, n.payload::jsonb, n.hash, ${p.runId}::uuid, ${p.runId}::uuid
      from page_records n
      where ${p.guard ?? 'true'} and ${p.prefilter === false ? 'true' : unchanged}
      on conflict (source, kind, key) do update
        set payload = excluded.payload, content_hash = excluded.content_hash,
            last_changed_run_id = excluded.last_changed_run_id, changed_at = now()
        where r.content_hash <> excluded.content_hash
      returning (xmax = 0) as inserted
    ),
    counts as (
      select (count(*) filter (where inserted))::int as inserted, (count(*) filter (where not inserted))::int as updated from written
    )`;
}

export function countsOf(written: number, row: { inserted: number | string; updated: number | string } | undefined): RecordCounts {
  const inserted = Number(row?.inserted ?? 0);
  const updated = Number(row?.updated ?? 0);
  return { new: inserted, updated, unchanged: written - inserted - updated };
}

/** Serialises and hashes each record; of repeated keys within a page the last wins (one statement cannot touch a row twice). */
export function serialiseRecords(keys: readonly string[], items: readonly unknown[]): SerialisedRecords {
  let count = keys.length;
  let picked: number[] | undefined;
  if (new Set(keys).size !== count) {
    const last = new Map<string, number>();
    keys.forEach((key, index) => last.set(key, index));
    picked = [...last.values()].sort((a, b) => a - b);
    count = picked.length;
  }
  const outKeys = new Array<string>(count);
  const hashes = new Array<string>(count);
  const payloads = new Array<string>(count);
  for (let index = 0; index < count; index++) {
    const at = picked ? picked[index]! : index;
    const payload = JSON.stringify(items[at]);
    outKeys[index] = keys[at]!;
    payloads[index] = payload;
    hashes[index] = hash('sha1', payload, 'base64');
  }
  return { keys: outKeys, hashes, payloads: count > 0 ? payloads.join('\n') : null };
}
