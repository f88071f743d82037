import { stringifyJson } from '../../config/records/exactJson.js';
import { depthBeyond, MAX_RECORD_DEPTH } from '../../config/records/jsonDepth.js';
import { NUL_ESCAPE } from './nulChars.js';
import { numberBeyondNumeric } from './numericRange.js';
import { PayloadLines } from './PayloadLines.js';
import { storedKey } from './storedKey.js';

/** A record that cannot be stored as it is, and why. */
export interface InvalidRecord {
  /** Its position in the page's records. */
  index: number;
  key: string;
  reason: string;
  /** Its JSON text, when it could be written at all. */
  raw: string | null;
}

/**
 * A page of records ready to send: keys and content hashes as text arrays, and the payloads as
 * one text of JSON documents separated by newlines (see PayloadLines). JSON.stringify never writes
 * a raw newline (it escapes every control character; lossless-json writes strings with it), so the
 * separator is unambiguous, and neither the client nor Postgres escapes and unescapes a thousand
 * JSON strings as array elements.
 */
export interface SerialisedRecords {
  /** As `records.key` holds them: a key too long for an index entry as its digest (see storedKey). */
  keys: string[];
  hashes: string[];
  /** Newline-separated JSON documents in UTF-8, in key order; null when there are none. */
  payloads: Buffer | null;
  /** Records left out because Postgres could not take them. */
  invalid: InvalidRecord[];
  /** Records left out because a later record of the page has the same key. */
  collapsed: number;
  /** NUL characters removed from the payloads (jsonb cannot hold U+0000). */
  nulsRemoved: number;
  /** Records of the page that `records.skip` left out before these. */
  filtered: number;
}

/** A UTF-16 surrogate without its other half. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** JSON.stringify writes a well-formed surrogate pair as is, so any surrogate escape it wrote is a lone one. */
const LONE_SURROGATE_ESCAPE = /(?<!\\)(?:\\\\)*\\u(d[89a-f][0-9a-f]{2})/i;

/**
 * Serialises and hashes each record. Of repeated keys within a page the last wins (one statement
 * cannot touch a row twice); NULs are removed from payloads; a record Postgres would refuse
 * (a lone surrogate, a NUL in its key, nesting too deep) is left out and described.
 */
/** `filtered`: how many records of the page `records.skip` left out before these, carried to the run's count. */
export function serialiseRecords(keys: readonly string[], items: readonly unknown[], filtered = 0): SerialisedRecords {
  let picked: number[] | undefined;
  if (new Set(keys).size !== keys.length) {
    const last = new Map<string, number>();
    keys.forEach((key, index) => last.set(key, index));
    picked = [...last.values()].sort((a, b) => a - b);
  }
  const count = picked ? picked.length : keys.length;
  const outKeys: string[] = [];
  const hashes: string[] = [];
  const payloads = new PayloadLines(count);
  const invalid: InvalidRecord[] = [];
  let nulsRemoved = 0;
  for (let at = 0; at < count; at++) {
    const index = picked ? picked[at]! : at;
    const key = keys[index]!;
    let payload: string;
    try {
      // A number parsed exactly (beyond 2^53, 1.50) is written as the upstream wrote it; jsonb keeps it so.
      payload = stringifyJson(items[index]);
    } catch (error) {
      invalid.push({ index, key, reason: `it cannot be written as JSON (${(error as Error).message})`, raw: null });
      continue;
    }
    const reason = refusal(key, payload);
    if (reason) {
      invalid.push({ index, key, reason, raw: payload });
      continue;
    }
    if (payload.includes('\\u0000')) {
      payload = payload.replace(NUL_ESCAPE, (_match, backslashes: string) => {
        nulsRemoved++;
        return backslashes;
      });
    }
    outKeys.push(storedKey(key));
    hashes.push(payloads.add(payload));
  }
  return { keys: outKeys, hashes, payloads: payloads.finish(), invalid, collapsed: keys.length - count, nulsRemoved, filtered };
}

/** Why Postgres would refuse this record, if it would. */
function refusal(key: string, payload: string): string | undefined {
  if (key.includes('\u0000')) return 'its key holds a NUL character, which Postgres text cannot';
  if (LONE_SURROGATE.test(key)) return 'its key holds a lone UTF-16 surrogate, which Postgres text cannot';
  const surrogate = payload.includes('\\u') ? LONE_SURROGATE_ESCAPE.exec(payload) : null;
  if (surrogate) return `it holds a lone UTF-16 surrogate (\\u${surrogate[1]}), which Postgres jsonb cannot`;
  const depth = depthBeyond(payload, MAX_RECORD_DEPTH);
  if (depth !== undefined) return `it is nested ${depth} levels deep, past the ${MAX_RECORD_DEPTH} a record may nest (Postgres jsonb refuses deep nesting)`;
  const number = numberBeyondNumeric(payload);
  if (number !== undefined) return `it holds the number ${number.length > 40 ? `${number.slice(0, 20)}…${number.slice(-12)}` : number}, beyond what Postgres numeric (jsonb's numbers) can hold`;
  return undefined;
}
