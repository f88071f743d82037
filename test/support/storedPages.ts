import { createHash } from 'node:crypto';
import { serialiseRecords } from '../../src/storage/records/serialiseRecords.js';
import type pg from 'pg';
import { PageWrites, type PagePool, type PageToStore } from '../../src/storage/pages/PageWrites.js';
import { ChangeHorizons } from '../../src/storage/records/ChangeHorizons.js';
import { MERGE } from '../../src/storage/pages/writeModes.js';

/** A page of these records, keyed by `keyField`, as a sync hands it to PageWrites.storePage. */
export function pageOf(kind: string, items: Record<string, unknown>[], keyField: string): PageToStore {
  const raw = JSON.stringify({ status: 'success', data: { result: items }, message: 'OK' });
  return {
    requestUrl: 'http://127.0.0.1/api?page=1',
    raw,
    status: 'success',
    message: 'OK',
    bytes: Buffer.byteLength(raw),
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

/**
 * PageWrites on `pool`, with the names of the statements it sends (on the pool or on a connection taken from it), in order, and the values each was sent with;
 * and the change horizons it uses (their reads told too), for claims to share.
 */
export function pageWritesTelling(pool: pg.Pool): { pages: PageWrites; sent: string[]; sentValues: unknown[][]; horizons: ChangeHorizons } {
  const sent: string[] = [];
  const sentValues: unknown[][] = [];
  const telling = <Sender extends Pick<pg.Pool, 'query'>>(sender: Sender) => (config: { name?: string; values?: unknown[] }, values?: unknown[]) => {
    sent.push(config.name ?? '(unnamed)');
    sentValues.push(config.values ?? values ?? []);
    return sender.query(config as pg.QueryConfig, values);
  };
  const tellingPool = {
    query: telling(pool),
    // A connection taken for a transaction tells its statements too; the connection itself goes back to the pool untouched.
    connect: async () => {
      const client = await pool.connect();
      const query = telling(client);
      return new Proxy(client, {
        get: (target, property) => {
          if (property === 'query') return query;
          const value: unknown = Reflect.get(target, property, target);
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        },
      });
    },
  } as unknown as PagePool;
  const horizons = new ChangeHorizons(tellingPool);
  return { pages: new PageWrites(tellingPool, horizons), sent, sentValues, horizons };
}
