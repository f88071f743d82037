import { createHash } from 'node:crypto';
import { serialiseRecords } from '../../src/storage/serialiseRecords.js';
import type { PageToStore } from '../../src/storage/PageWrites.js';
import { MERGE } from '../../src/storage/writeModes.js';

/** A page of these records, keyed by `keyField`, as a sync hands it to PageWrites.storePage. */
export function pageOf(kind: string, items: Record<string, unknown>[], keyField: string): PageToStore {
  const raw = JSON.stringify({ status: 'success', data: { result: items }, message: 'OK' });
  return {
    requestUrl: 'http://127.0.0.1/api?page=1',
    raw,
    status: 'success',
    message: 'OK',
    bytes: raw.length,
    contentHash: createHash('sha256').update(raw).digest('hex'),
    latencyMs: 12,
    kind,
    records: serialiseRecords(
      items.map((item) => String(item[keyField])),
      items,
    ),
    checkpoint: { position: {} },
    cursorValue: null,
    writeMode: MERGE,
    derivation: null,
  };
}
