/**
 * `npm run bench -- --analytics [--analytics-rows N]`: what analysts query for a kind with columns
 * (its view over its typed table) against a plain table made from it with the same indexes, at
 * 10M records, and what keeping the typed table costs a first sync; in one run. Loading the
 * records takes minutes, so it is a mode of its own, merged into test/bench/results.json
 * (`analytics`, `figures.analytics…` and its targets), which a full bench keeps.
 */
import pg from 'pg';
import { applyKindViews } from '../../src/analytics/kindViews.js';
import { kindsSectionSchema } from '../../src/config/analytics/kindsSchema.js';
import { benchConfigTree, expectedRecords, TX_RUN_CONCURRENCY, txListJob } from './benchConfig.js';
import { writeBenchmarksPage } from './benchmarksPage.js';
import { measureRuns, type MeasuredRuns } from './measureRuns.js';
import { mergeModeResults, targetOf } from './modeResults.js';
import { median } from './report.js';
import { emptyFeedsyncTables, settleDatabase } from './settleDatabase.js';
import { withBenchStack } from './benchStack.js';
import { alternately } from './alternately.js';
import { say, wholeNumberArg } from './modeArgs.js';


const DEFAULT_ROWS = 10_000_000;
const LOAD_CHUNK = 1_000_000;
/** Times each query runs on each side, alternating; the figure is each side's median. */
const QUERY_RUNS = 5;
const FIRST_SYNC_RECORDS = 200_000;
const FIRST_SYNC_ALTERNATIONS = 3;
const VS_TABLE_WANTED = 1.5;
const FIRST_SYNC_WANTED = 0.85;

/** The example config's transaction columns (examples/etherscan.yaml), with indexes on the two looked up. */
const TRANSACTION_KIND = {
  columns: {
    block_number: { path: 'blockNumber', type: 'bigint' },
    from_address: { path: 'from', type: 'text' },
    to_address: { path: 'to', type: 'text' },
    value_wei: { path: 'value', type: 'numeric' },
    gas_used: { path: 'gasUsed', type: 'numeric' },
    is_error: { path: 'isError', type: 'boolean' },
    mined_at: { path: 'timeStamp', type: 'timestamptz', from: 'unix_seconds' },
  },
  indexes: ['block_number', 'from_address'],
};

/** The four queries; `$address` is one address of the loaded rows. */
const QUERIES = [
  { name: 'count', sql: (from: string) => `select count(*) from ${from}` },
  { name: 'daily', sql: (from: string) => `select date_trunc('day', mined_at) as day, count(*), sum(value_wei) from ${from} group by 1` },
  { name: 'address', sql: (from: string) => `select count(*), sum(value_wei) from ${from} where from_address = '0x${'ab'.repeat(20)}'` },
  { name: 'blockRange', sql: (from: string) => `select * from ${from} where block_number between 100000 and 100010` },
] as const;

export interface AnalyticsResults {
  rows: number;
  loadSeconds: number;
  queries: { name: string; viewMs: number; tableMs: number; ratio: number }[];
  /** Per record of the kind: its partition of records (heap, indexes, TOAST), its typed table (with indexes), and the plain table made from the view. */
  bytesPerRecord: { records: number; typed: number; plainTable: number };
  /** Typed table and records together over records alone. */
  storageVsRecords: number;
  firstSync: { withColumnsRecordsPerS: number[]; withoutColumnsRecordsPerS: number[]; ratios: number[] };
  notes: string[];
}

/** Loads `rows` explorer transactions as records of `kind` by SQL: a fifth of them from one address (the looked-up one), a block per 10, a day per 8,640 blocks. */
async function loadTransactions(client: pg.Client, kind: string, rows: number): Promise<number> {
  const started = performance.now();
  const run = '00000000-0000-0000-0000-000000000002';
  for (let from = 1; from <= rows; from += LOAD_CHUNK) {
    const to = Math.min(rows, from + LOAD_CHUNK - 1);
    await client.query(
      `insert into records (source, kind, key, payload, content_hash, first_seen_run_id, last_changed_run_id)
       select 'explorer', $1, '0xe' || lpad(to_hex(n), 63, '0'),
         jsonb_build_object('blockNumber', (n / 10)::text, 'timeStamp', (1700000000 + n)::text, 'hash', '0xe' || lpad(to_hex(n), 63, '0'),
           'from', case when n % 5 = 0 then '0x${'ab'.repeat(20)}' else '0x' || left(md5((n % 9973)::text), 40) end,
           'to', '0x' || left(md5((n % 7919)::text), 40), 'value', (n::numeric * 1000000007)::text, 'gasUsed', (21000 + n % 50000)::text,
           'isError', (n % 97 = 0)::int::text, 'nonce', (n % 1000)::text, 'input', '0x'),
         md5(n::text), $2::uuid, $2::uuid
       from generate_series($3::bigint, $4::bigint) as n`,
      [kind, run, from, to],
    );
    say(`   ${to.toLocaleString('en-US')} of ${rows.toLocaleString('en-US')} rows (${Math.round((performance.now() - started) / 1000)} s)`);
  }
  return (performance.now() - started) / 1000;
}

/** Milliseconds of one run of `sql` (its rows read in full). */
async function timed(client: pg.Client, sql: string): Promise<number> {
  const started = performance.now();
  await client.query(sql);
  return performance.now() - started;
}

const relationBytes = async (client: pg.Client, relation: string): Promise<number> =>
  Number((await client.query<{ bytes: string }>(`select pg_total_relation_size($1::regclass)::text as bytes`, [relation])).rows[0]!.bytes);

export async function runAnalyticsBench(args: readonly string[]): Promise<void> {
  const rows = wholeNumberArg(args, '--analytics-rows', DEFAULT_ROWS, 1);
  say(`feedsync bench --analytics: ${rows.toLocaleString('en-US')} records; starting Redis, Postgres (or REDIS_URL / DATABASE_URL) and the simulator…`);
  await withBenchStack(async ({ sim, databaseUrl, servers }) => {

    // 1. What keeping the typed table costs a first sync: with the kind's columns and without, alternately, each into emptied tables.
    const job = txListJob('tx-typed', FIRST_SYNC_RECORDS, 0, 1000);
    const firstSync = async (withColumns: boolean): Promise<MeasuredRuns> => {
      await emptyFeedsyncTables(databaseUrl);
      const { tree, webhookUuid } = benchConfigTree({ sim, txJobs: [job], concurrency: TX_RUN_CONCURRENCY, kinds: withColumns ? { transaction: { columns: TRANSACTION_KIND.columns } } : { transaction: {} } });
      await settleDatabase(databaseUrl);
      const [result] = (await measureRuns({ configTree: tree, webhookUuid, ...servers, trials: [[job.name]], expectedRecords: expectedRecords(job), expectedNew: expectedRecords(job), timeoutMs: 600_000, pollMs: 200 })) as [MeasuredRuns];
      say(`   ${withColumns ? 'with' : 'without'} columns: ${Math.round(result.recordsPerS)} records/s`);
      return result;
    };
    const { on: withColumns, off: withoutColumns } = await alternately(FIRST_SYNC_ALTERNATIONS, async (columns, alternation) => {
      say(`analytics 1: a first sync of ${expectedRecords(job).toLocaleString('en-US')} txs ${columns ? 'with' : 'without'} the kind's columns (${alternation + 1} of ${FIRST_SYNC_ALTERNATIONS})…`);
      return (await firstSync(columns)).recordsPerS;
    });
    const ratios = withColumns.map((rate, index) => Number((rate / withoutColumns[index]!).toFixed(3)));

    // 2. The four queries at `rows` records, through the view and against a plain table made from it.
    await emptyFeedsyncTables(databaseUrl);
    const client = new pg.Client({ connectionString: databaseUrl, application_name: 'feedsync-bench-analytics' });
    await client.connect();
    try {
      const analytics = { schema: 'analytics' };
      const kinds = kindsSectionSchema.parse({ transaction: TRANSACTION_KIND });
      const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
      let loadSeconds: number;
      try {
        // No typed table while loading (the last worker's config may have had one): it is made from the records after.
        await applyKindViews(pool, kindsSectionSchema.parse({ transaction: {} }), analytics);
        say(`analytics 2: loading ${rows.toLocaleString('en-US')} transactions…`);
        loadSeconds = await loadTransactions(client, 'transaction', rows);
        say('analytics 2: making the typed table from them, with its indexes, and a plain table from the view with the same…');
        await applyKindViews(pool, kinds, analytics);
      } finally {
        await pool.end();
      }
      await client.query('drop table if exists bench_plain_transaction');
      await client.query('create table bench_plain_transaction as select * from analytics.transaction');
      await client.query('create index on bench_plain_transaction (block_number)');
      await client.query('create index on bench_plain_transaction (from_address)');
      await client.query('vacuum analyze bench_plain_transaction');
      await client.query('vacuum analyze records');
      await client.query('vacuum analyze analytics_typed.transaction');
      const queries: AnalyticsResults['queries'] = [];
      for (const query of QUERIES) {
        const view: number[] = [];
        const table: number[] = [];
        // Once each untimed: both read from the cache, not the disk.
        await timed(client, query.sql('analytics.transaction'));
        await timed(client, query.sql('bench_plain_transaction'));
        for (let run = 0; run < QUERY_RUNS; run++) {
          view.push(await timed(client, query.sql('analytics.transaction')));
          table.push(await timed(client, query.sql('bench_plain_transaction')));
        }
        const viewMs = median(view, (ms) => ms);
        const tableMs = median(table, (ms) => ms);
        queries.push({ name: query.name, viewMs: Number(viewMs.toFixed(2)), tableMs: Number(tableMs.toFixed(2)), ratio: Number((viewMs / tableMs).toFixed(3)) });
        say(`   ${query.name}: view ${viewMs.toFixed(1)} ms, table ${tableMs.toFixed(1)} ms`);
      }
      const partition = (await client.query<{ name: string }>(`select feedsync_records_partition_name('transaction') as name`)).rows[0]!.name;
      const perRecord = (bytes: number) => Math.round(bytes / rows);
      const bytesPerRecord = {
        records: perRecord(await relationBytes(client, partition)),
        typed: perRecord(await relationBytes(client, 'analytics_typed.transaction')),
        plainTable: perRecord(await relationBytes(client, 'bench_plain_transaction')),
      };
      await client.query('drop table bench_plain_transaction');
      const ratioOf = (name: string) => queries.find((query) => query.name === name)!.ratio;
      const firstSyncRatio = median(ratios, (ratio) => ratio);
      const results: AnalyticsResults = {
        rows,
        loadSeconds: Math.round(loadSeconds),
        queries,
        bytesPerRecord,
        storageVsRecords: Number(((bytesPerRecord.records + bytesPerRecord.typed) / bytesPerRecord.records).toFixed(3)),
        firstSync: { withColumnsRecordsPerS: withColumns.map(Math.round), withoutColumnsRecordsPerS: withoutColumns.map(Math.round), ratios },
        notes: [
          `queries: ${rows} explorer transactions loaded by SQL as records of kind transaction (the example config's columns), its typed table made from them with indexes on block_number and from_address (kinds.transaction.indexes), and a plain table made from the view (create table … as select * from analytics.transaction) with the same two indexes; each query run once untimed on each side, then ${QUERY_RUNS} times alternately, each side's median`,
          `firstSync: ${FIRST_SYNC_ALTERNATIONS} alternations (the order flipped each time) of a first sync of ${expectedRecords(job)} txs at limit 1000 into emptied tables, in a fresh \`feedsync worker\`, with the kind's columns (its typed table kept by the trigger) and without; each ratio with over without, the figure their median`,
          'bytesPerRecord: the kind\'s partition of records, its typed table and the plain table, each with its indexes and TOAST, over the rows; storageVsRecords = (records + typed) / records',
        ],
      };
      const dailyVsTable = ratioOf('daily');
      const lookupVsTable = ratioOf('blockRange');
      await mergeModeResults({
        section: 'analytics',
        data: results,
        figures: { analyticsDailyVsTable: dailyVsTable, analyticsLookupVsTable: lookupVsTable, analyticsFirstSyncWithVsWithoutColumns: firstSyncRatio, analyticsStorageVsRecords: results.storageVsRecords },
        targets: [
          targetOf(`per-day count and sum at ${rows / 1e6}M records: view vs plain typed table`, dailyVsTable, '<=', VS_TABLE_WANTED),
          targetOf(`block range lookup at ${rows / 1e6}M records: view vs plain typed table`, lookupVsTable, '<=', VS_TABLE_WANTED),
          ...QUERIES.filter((query) => query.name === 'count' || query.name === 'address').map((query) => targetOf(`${query.name} at ${rows / 1e6}M records: view vs plain typed table`, ratioOf(query.name), '<=', VS_TABLE_WANTED)),
          targetOf('first sync with a kind\'s columns (typed table kept) vs without', firstSyncRatio, '>=', FIRST_SYNC_WANTED),
          targetOf('typed table and records vs records alone (bytes)', results.storageVsRecords, '<=', 1.3),
        ],
      });
      await writeBenchmarksPage();
      say(`\nper-day query ×${dailyVsTable}, block range ×${lookupVsTable} of the plain table; first sync with columns ×${firstSyncRatio} of without; storage ×${results.storageVsRecords} of records alone`);
    } finally {
      await client.end();
    }
  });
}
