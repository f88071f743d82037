import pg from 'pg';
import { createCeilingTables } from './ceilingTables.js';
import { CEILING_STORES, type CeilingStoreMethod } from './ceilingStores.js';
import { cpuBetween, cpuSnapshot, type CpuSeconds } from './processCpu.js';
import { settleDatabase } from './settleDatabase.js';
import type { TxQuery } from './txPages.js';
import { FEEDSYNC_HTTP_CONNECTIONS, FEEDSYNC_PAGES_AHEAD, TxPagesAhead } from './txPagesAhead.js';

/** One pass of the pipeline with one store method. */
export interface CeilingPass {
  method: CeilingStoreMethod;
  pages: number;
  records: number;
  /** From the first request to the last page's commit. */
  seconds: number;
  recordsPerS: number;
  pagesPerS: number;
  /** CPU seconds over the measured time; `worker` is the bench process, which fetches, prepares and stores. */
  cpu: CpuSeconds;
}

export interface PipelinedCeiling {
  httpConnections: number;
  lookAhead: number;
  /** Postgres connections the pages are stored over, each taking the next page when it is free. */
  storeConnections: number;
  passes: CeilingPass[];
  /** The faster pass: its method is the one each e2e pair measures again (see report's e2eVsCeiling). */
  best: CeilingPass;
}

/**
 * Postgres connections storing pages in parallel. On this 2-core machine one connection gave 54k
 * records/s (200k records); two, three and four gave 66–78k at 1M, alike within its noise, with
 * both cores busy: more would only contend for the tables' extension and index pages.
 */
export const STORE_CONNECTIONS = 3;

/**
 * The ceiling of a pipeline a skilled engineer would write for the same sync on this machine:
 * the query's pages fetched, parsed, serialised and hashed with feedsync's HTTP connections and
 * look-ahead (TxPagesAhead) while earlier pages are stored, each page by the next free of
 * {@link STORE_CONNECTIONS} Postgres connections (records, envelope and body), into empty tables
 * shaped like feedsync's in a scratch schema (dropped after). No run row is moved per page and no
 * change ticket is taken (see ceilingStores), so pages commit in any order. One pass per bulk
 * method, each on fresh tables; the faster is the ceiling.
 */
export async function measurePipelinedCeiling(databaseUrl: string, query: TxQuery, expectedRecords: number, simulatorPid: number): Promise<PipelinedCeiling> {
  const passes: CeilingPass[] = [];
  for (const method of Object.keys(CEILING_STORES) as CeilingStoreMethod[]) passes.push(await measureCeilingPass(databaseUrl, query, expectedRecords, simulatorPid, method));
  const best = passes.reduce((a, b) => (b.recordsPerS > a.recordsPerS ? b : a));
  return { httpConnections: FEEDSYNC_HTTP_CONNECTIONS, lookAhead: FEEDSYNC_PAGES_AHEAD, storeConnections: STORE_CONNECTIONS, passes, best };
}

/** One pass of the ceiling's pipeline with one store method, on fresh tables (see measurePipelinedCeiling). */
export async function measureCeilingPass(databaseUrl: string, query: TxQuery, expectedRecords: number, simulatorPid: number, method: CeilingStoreMethod): Promise<CeilingPass> {
  const pass = await measurePass(databaseUrl, query, simulatorPid, method);
  // A walk that ended early would make a ceiling of less work.
  if (pass.records !== expectedRecords) throw new Error(`the ceiling's ${method} pass read ${pass.records} records, expected ${expectedRecords}`);
  return pass;
}

/** Timed from the first request to the last commit; what was stored is checked. */
async function measurePass(databaseUrl: string, query: TxQuery, simulatorPid: number, method: CeilingStoreMethod): Promise<CeilingPass> {
  const admin = new pg.Client({ connectionString: databaseUrl, application_name: 'feedsync-bench-ceiling' });
  await admin.connect();
  const clients: pg.Client[] = [];
  const tables = await createCeilingTables(admin).catch(async (error: unknown) => {
    await admin.end();
    throw error;
  });
  try {
    const storePage = CEILING_STORES[method](tables);
    for (let index = 0; index < STORE_CONNECTIONS; index++) {
      const client = new pg.Client({ connectionString: databaseUrl, application_name: `feedsync-bench-ceiling-${index + 1}` });
      await client.connect();
      clients.push(client);
    }
    // As before each e2e run: no phase pays for the previous one's dirty buffers.
    await settleDatabase(databaseUrl);
    const pages = new TxPagesAhead(query);
    const totals = { pages: 0, records: 0 };
    const cpuBefore = cpuSnapshot({ worker: process.pid, simulator: simulatorPid });
    const started = performance.now();
    try {
      await Promise.all(
        clients.map(async (client) => {
          for (let page = await pages.next(); page; page = await pages.next()) {
            await storePage(client, page);
            totals.pages++;
            totals.records += page.keys.length;
          }
        }),
      );
    } finally {
      await pages.close();
    }
    const seconds = (performance.now() - started) / 1000;
    const cpu = cpuBetween(cpuBefore, cpuSnapshot({ worker: process.pid, simulator: simulatorPid }));
    await checkStored(admin, tables.schema, totals);
    return { method, ...totals, seconds, recordsPerS: totals.records / seconds, pagesPerS: totals.pages / seconds, cpu };
  } finally {
    for (const client of clients) await client.end().catch(() => undefined);
    await tables.drop().catch(() => undefined);
    await admin.end();
  }
}

/** Nothing was skipped to win the figure: every record, envelope and body is in. */
async function checkStored(client: pg.Client, schema: string, totals: { pages: number; records: number }): Promise<void> {
  const { rows } = await client.query<{ records: number; envelopes: number; bodies: number }>(
    `select (select count(*)::int from ${schema}.records) as records, (select count(*)::int from ${schema}.envelopes) as envelopes,
      (select count(*)::int from ${schema}.page_bodies) as bodies`,
  );
  const stored = rows[0]!;
  if (stored.records !== totals.records || stored.envelopes !== totals.pages || stored.bodies !== totals.pages) {
    throw new Error(`the ceiling stored ${JSON.stringify(stored)}, expected ${totals.records} records and ${totals.pages} envelopes and bodies`);
  }
}

/** The report's rows, one per pass: #, measurement, size, result, note. */
export function ceilingRows(ceiling: PipelinedCeiling): string[][] {
  const how = `${ceiling.httpConnections} HTTP connections, ${ceiling.lookAhead} pages ahead, ${ceiling.storeConnections} Postgres connections`;
  return ceiling.passes.map((pass) => [
    '1',
    `pipelined ceiling: fetch ahead + parallel stores, ${pass.method === 'copy' ? 'COPY + insert' : 'unnest + lines insert'}`,
    `${pass.records.toLocaleString('en-US')} records, ${how}`,
    `${Math.round(pass.recordsPerS).toLocaleString('en-US')} records/s, ${pass.pagesPerS.toFixed(1)} pages/s (${pass.seconds.toFixed(1)} s)`,
    pass === ceiling.best ? 'the faster: each pair runs it again' : '',
  ]);
}
