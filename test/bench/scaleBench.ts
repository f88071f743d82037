/**
 * `npm run bench -- --scale [--scale-rows N]`: feedsync's stores against a `records` table that
 * already holds tens of millions of rows, in one run. Loading them takes minutes, so it is a mode
 * of its own; its figures are merged into test/bench/results.json (`scale`, `figures.scale…` and
 * two targets), which a full bench keeps.
 */
import pg from 'pg';
import { benchConfigTree, expectedRecords, TX_RUN_CONCURRENCY, txListJob, type TxListJob } from './benchConfig.js';
import { RESULTS_FILE, writeBenchmarksPage } from './benchmarksPage.js';
import { mergeModeResults, targetOf } from './modeResults.js';
import { measureRuns, type MeasuredRuns } from './measureRuns.js';
import { emptyFeedsyncTables, settleDatabase } from './settleDatabase.js';
import { withBenchStack } from './benchStack.js';
import { say, wholeNumberArg } from './modeArgs.js';


/** Rows loaded into the kind before the big re-sync (with the 1M synced: 50M in the kind). */
const DEFAULT_FILLER = 49_000_000;
/** Rows a loading statement inserts. */
const FILLER_CHUNK = 2_000_000;
const SYNCED = 1_000_000;
const FIRST_SYNC_WANTED = 0.9;
const RESYNC_WANTED = 0.7;

export interface ScaleResults {
  fillerRows: number;
  syncedRecords: number;
  firstSyncEmptyRecordsPerS: number[];
  firstSyncBigRecordsPerS: number;
  resyncSmallRecordsPerS: number[];
  resyncBigRecordsPerS: number;
  loadSeconds: number;
  /** Of the kind's partition holding filler + synced rows, per row. */
  bytesPerRecord: { heap: number; primaryKey: number; changeSeqIndex: number; toast: number };
  notes: string[];
}

/** Inserts `rows` records of `kind` with keys in order (a fast load), with the explorer's transactions' main fields (a third of their bytes: the load is minutes shorter). */
async function loadFiller(databaseUrl: string, kind: string, rows: number): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'feedsync-bench-scale-load' });
  await client.connect();
  const started = performance.now();
  try {
    const run = '00000000-0000-0000-0000-000000000001';
    for (let from = 1; from <= rows; from += FILLER_CHUNK) {
      const to = Math.min(rows, from + FILLER_CHUNK - 1);
      await client.query(
        `insert into records (source, kind, key, payload, content_hash, first_seen_run_id, last_changed_run_id)
         select 'explorer', $1, '0xf' || lpad(to_hex(n), 63, '0'),
           jsonb_build_object('blockNumber', (n / 10)::text, 'timeStamp', (1700000000 + n)::text, 'hash', '0xf' || lpad(to_hex(n), 63, '0'),
             'from', '0x' || left(md5((n % 9973)::text), 40), 'to', '0x' || left(md5((n % 7919)::text), 40), 'value', (n::numeric * 1000000007)::text),
           md5(n::text), $2::uuid, $2::uuid
         from generate_series($3::bigint, $4::bigint) as n`,
        [kind, run, from, to],
      );
      say(`   ${to.toLocaleString('en-US')} of ${rows.toLocaleString('en-US')} rows (${Math.round((performance.now() - started) / 1000)} s)`);
    }
  } finally {
    await client.end();
  }
  return (performance.now() - started) / 1000;
}

async function bytesPerRecord(databaseUrl: string, kind: string): Promise<ScaleResults['bytesPerRecord']> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'feedsync-bench-scale-size' });
  await client.connect();
  try {
    const { rows } = await client.query<{ part: string; n: string; heap: string; pk: string; seq: string; toast: string }>(
      `select p.part, (select count(*) from records where kind = $1)::text as n, pg_relation_size(p.part)::text as heap,
         (select sum(pg_relation_size(i.indexrelid)) filter (where i.indisprimary) from pg_index i where i.indrelid = p.part::regclass)::text as pk,
         (select sum(pg_relation_size(i.indexrelid)) filter (where not i.indisprimary) from pg_index i where i.indrelid = p.part::regclass)::text as seq,
         (pg_table_size(p.part) - pg_relation_size(p.part))::text as toast
       from (select feedsync_records_partition_name($1) as part) p`,
      [kind],
    );
    const row = rows[0]!;
    const per = (bytes: string) => Math.round(Number(bytes) / Number(row.n));
    return { heap: per(row.heap), primaryKey: per(row.pk), changeSeqIndex: per(row.seq), toast: per(row.toast) };
  } finally {
    await client.end();
  }
}

export async function runScaleBench(args: readonly string[]): Promise<void> {
  const filler = wholeNumberArg(args, '--scale-rows', DEFAULT_FILLER, 0);
  say(`feedsync bench --scale: ${filler.toLocaleString('en-US')} filler rows; starting Redis, Postgres (or REDIS_URL / DATABASE_URL) and the simulator…`);
  await withBenchStack(async ({ sim, databaseUrl, servers }) => {
    const run = async (label: string, job: TxListJob, expectedNew: number): Promise<MeasuredRuns> => {
      const { tree, webhookUuid } = benchConfigTree({ sim, txJobs: [job], concurrency: TX_RUN_CONCURRENCY });
      say(`${label}…`);
      await settleDatabase(databaseUrl);
      const [result] = (await measureRuns({ configTree: tree, webhookUuid, ...servers, trials: [[job.name]], expectedRecords: expectedRecords(job), expectedNew, timeoutMs: 1_200_000, pollMs: 200 })) as [MeasuredRuns];
      say(`   ${Math.round(result.recordsPerS)} records/s, ${result.seconds.toFixed(1)} s`);
      return result;
    };
    // The same blocks each time, each first sync under a kind of its own (a partition of its own).
    const synced = (kind: string) => txListJob(`tx-${kind}`, SYNCED, 0, 1000, kind);

    await emptyFeedsyncTables(databaseUrl);
    const emptyFirst = [await run('scale 1: a first sync of 1M into an empty records table', synced('transaction'), SYNCED)];
    const smallResync = [await run('scale 1: its unchanged re-sync, the kind holding 1M', synced('transaction'), 0)];
    say(`scale 2: loading ${filler.toLocaleString('en-US')} more rows of the kind…`);
    const loadSeconds = await loadFiller(databaseUrl, 'transaction', filler);
    const bigResync = await run(`scale 2: the unchanged re-sync, the kind holding ${(filler + SYNCED).toLocaleString('en-US')}`, synced('transaction'), 0);
    const bigFirst = await run(`scale 3: a first sync of 1M under another kind, records holding ${(filler + SYNCED).toLocaleString('en-US')} rows of other kinds`, synced('transaction_other'), SYNCED);
    const sizes = await bytesPerRecord(databaseUrl, 'transaction');
    // The machine drifts within minutes: the small side is measured again after the big one.
    await emptyFeedsyncTables(databaseUrl);
    emptyFirst.push(await run('scale 4: a first sync of 1M into an empty records table, again', synced('transaction_again'), SYNCED));
    smallResync.push(await run('scale 4: its unchanged re-sync, the kind holding 1M', synced('transaction_again'), 0));

    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const results: ScaleResults = {
      fillerRows: filler,
      syncedRecords: SYNCED,
      firstSyncEmptyRecordsPerS: emptyFirst.map((result) => Math.round(result.recordsPerS)),
      firstSyncBigRecordsPerS: Math.round(bigFirst.recordsPerS),
      resyncSmallRecordsPerS: smallResync.map((result) => Math.round(result.recordsPerS)),
      resyncBigRecordsPerS: Math.round(bigResync.recordsPerS),
      loadSeconds: Math.round(loadSeconds),
      bytesPerRecord: sizes,
      notes: [
        `each side of a ratio: 1M explorer transactions at limit 1000 (the full bench's big query), in a fresh \`feedsync worker\`, after VACUUM (ANALYZE) and CHECKPOINT; the empty side measured before and after the big one (the machine drifts within minutes), the ratio over their mean`,
        `filler: ${filler} rows of the synced kind loaded by SQL, keys in order (66 characters, as the transactions' hashes), payloads of the transactions' main fields, before the big re-sync; the big first sync writes another kind (its own partition) while records holds them`,
        'bytesPerRecord: of the synced kind\'s partition after the filler and the 1M: heap, primary key, change feed index and TOAST, each over its rows',
      ],
    };
    const firstRatio = Number((results.firstSyncBigRecordsPerS / mean(results.firstSyncEmptyRecordsPerS)).toFixed(3));
    const resyncRatio = Number((results.resyncBigRecordsPerS / mean(results.resyncSmallRecordsPerS)).toFixed(3));
    await mergeIntoResults(results, firstRatio, resyncRatio);
    await writeBenchmarksPage();
    say(`\nfirst sync, records holding ${(filler + SYNCED).toLocaleString('en-US')} rows of other kinds vs empty: ×${firstRatio} (wanted >= ${FIRST_SYNC_WANTED})`);
    say(`unchanged re-sync, its kind holding ${(filler + SYNCED).toLocaleString('en-US')} vs 1M: ×${resyncRatio} (wanted >= ${RESYNC_WANTED})`);
    say(`bytes per record: ${JSON.stringify(sizes)}; results: ${RESULTS_FILE}`);
  });
}

/** The targets the scale mode adds to results.json's. */
export const SCALE_TARGET_NAMES = ['first sync into records holding 50M rows of other kinds vs into an empty one', 'unchanged re-sync of 1M records of a 50M-record kind vs of a 1M-record kind'];

function mergeIntoResults(scale: ScaleResults, firstRatio: number, resyncRatio: number): Promise<void> {
  return mergeModeResults({
    section: 'scale',
    data: scale,
    figures: { scaleFirstSyncBigVsEmpty: firstRatio, scaleResyncBigVsEmpty: resyncRatio },
    targets: [targetOf(SCALE_TARGET_NAMES[0]!, firstRatio, '>=', FIRST_SYNC_WANTED), targetOf(SCALE_TARGET_NAMES[1]!, resyncRatio, '>=', RESYNC_WANTED)],
  });
}
