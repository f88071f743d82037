import pg from 'pg';
import type { MeasuredRuns } from './measureRuns.js';
import type { Target } from './report.js';
import { emptyFeedsyncTables, FEEDSYNC_TABLES } from './settleDatabase.js';

export interface StorageGrowth {
  records: number;
  resyncs: number;
  /** feedsync's tables with their indexes and TOAST, after one sync into empty tables. */
  afterFirstMB: number;
  /** The same after the unchanged re-syncs. */
  afterResyncsMB: number;
  pageBodies: { afterFirst: number; afterResyncs: number };
  envelopes: { afterFirst: number; afterResyncs: number };
}

/** Unchanged re-syncs may grow feedsync's tables by this much in all: envelope rows, not pages. */
const WANTED_RATIO = 1.1;

async function tablesSize(databaseUrl: string): Promise<{ bytes: number; pageBodies: number; envelopes: number }> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'feedsync-bench-size' });
  await client.connect();
  try {
    const { rows } = await client.query<{ bytes: string; page_bodies: number; envelopes: number }>(
      // A partitioned table (records) holds nothing itself: its partitions are summed.
      `select (select sum(pg_total_relation_size(p.relid)) from pg_class c, pg_partition_tree(c.oid) p
          where c.relkind in ('r', 'p') and c.relnamespace = 'public'::regnamespace and c.relname = any($1::text[]) and p.isleaf)::text as bytes,
        (select count(*)::int from page_bodies) as page_bodies, (select count(*)::int from envelopes) as envelopes`,
      [FEEDSYNC_TABLES],
    );
    return { bytes: Number(rows[0]!.bytes), pageBodies: rows[0]!.page_bodies, envelopes: rows[0]!.envelopes };
  } finally {
    await client.end();
  }
}

/**
 * How feedsync's tables grow when the same records are synced again unchanged: their size after
 * one sync into empty tables, and after `resyncs` unchanged re-syncs of the same query. Each
 * page's body is stored once, so a re-sync adds envelope rows and a run row, not pages.
 */
export async function measureStorageGrowth(databaseUrl: string, records: number, resyncs: number, sync: (label: string, expectedNew: number) => Promise<MeasuredRuns>): Promise<StorageGrowth> {
  await emptyFeedsyncTables(databaseUrl);
  await sync('8. storage: one sync into empty tables', records);
  const afterFirst = await tablesSize(databaseUrl);
  for (let n = 1; n <= resyncs; n++) await sync(`8. storage: unchanged re-sync ${n} of ${resyncs}`, 0);
  const afterResyncs = await tablesSize(databaseUrl);
  return {
    records,
    resyncs,
    afterFirstMB: afterFirst.bytes / 1024 / 1024,
    afterResyncsMB: afterResyncs.bytes / 1024 / 1024,
    pageBodies: { afterFirst: afterFirst.pageBodies, afterResyncs: afterResyncs.pageBodies },
    envelopes: { afterFirst: afterFirst.envelopes, afterResyncs: afterResyncs.envelopes },
  };
}

export const storageGrowthRatio = (growth: StorageGrowth): number => Number((growth.afterResyncsMB / growth.afterFirstMB).toFixed(3));

export function storageGrowthTarget(growth: StorageGrowth): Target {
  const value = storageGrowthRatio(growth);
  return { name: `feedsync tables after ${growth.resyncs} unchanged re-syncs vs after one sync`, wanted: `<= ${WANTED_RATIO}`, value, met: value <= WANTED_RATIO };
}

/** The report's row: # , measurement, size, result, note. */
export function storageGrowthRow(growth: StorageGrowth): string[] {
  return [
    '8',
    `storage, one sync then ${growth.resyncs} unchanged re-syncs`,
    `${growth.records.toLocaleString('en-US')} records`,
    `${growth.afterFirstMB.toFixed(1)} MB → ${growth.afterResyncsMB.toFixed(1)} MB`,
    `x${storageGrowthRatio(growth)}; page bodies ${growth.pageBodies.afterFirst} → ${growth.pageBodies.afterResyncs}, envelopes ${growth.envelopes.afterFirst} → ${growth.envelopes.afterResyncs}`,
  ];
}
