import { hash } from 'node:crypto';

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
