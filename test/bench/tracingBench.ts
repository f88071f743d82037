/**
 * `npm run bench -- --tracing [--tracing-records N]`: what tracing costs a first sync. The same
 * first sync of N explorer transactions (default 1M) into emptied tables, in a fresh worker with
 * every span sampled and exported over OTLP (http/protobuf) to a local collector, and in one
 * without tracing, alternated so that the machine's drift falls on both sides. Writes its section
 * into test/bench/results.json (figure `tracingFirstSyncRatio`) and docs/benchmarks.md.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { benchConfigTree, expectedRecords, TX_RUN_CONCURRENCY, txListJob } from './benchConfig.js';
import { writeBenchmarksPage } from './benchmarksPage.js';
import { withBenchStack } from './benchStack.js';
import { alternately } from './alternately.js';
import { say, wholeNumberArg } from './modeArgs.js';
import { measureRuns } from './measureRuns.js';
import { mergeModeResults, targetOf } from './modeResults.js';
import { median } from './report.js';
import { emptyFeedsyncTables, settleDatabase } from './settleDatabase.js';


const DEFAULT_RECORDS = 1_000_000;
const ALTERNATIONS = 3;
/** At most 5% fewer records/s with every span sampled (issue 46). */
const TRACED_WANTED = 0.95;

/** A stand-in collector: takes every OTLP export with 200 and counts its bytes, so that the cost measured is feedsync's, not a collector's. */
async function startSink(): Promise<{ url: string; bytes: () => number; close: () => Promise<void> }> {
  let bytes = 0;
  const server = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => (bytes += chunk.length));
    request.on('end', () => response.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bytes: () => bytes,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export async function runTracingBench(args: readonly string[]): Promise<void> {
  const records = wholeNumberArg(args, '--tracing-records', DEFAULT_RECORDS, 1000);
  say(`feedsync bench --tracing: a first sync of ${records.toLocaleString('en-US')} txs; starting Redis, Postgres (or REDIS_URL / DATABASE_URL) and the simulator…`);
  const sink = await startSink();
  try {
    await withBenchStack(async ({ sim, databaseUrl, servers }) => {
      const job = txListJob('tx-traced', records, 0, 1000);
      const traced = { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_TRACES_SAMPLER: 'always_on', OTEL_SERVICE_NAME: 'feedsync-bench' };
      const firstSync = async (tracing: boolean) => {
        await emptyFeedsyncTables(databaseUrl);
        await settleDatabase(databaseUrl);
        const { tree, webhookUuid } = benchConfigTree({ sim, txJobs: [job], concurrency: TX_RUN_CONCURRENCY });
        const exportedBefore = sink.bytes();
        const [result] = await measureRuns({ configTree: tree, webhookUuid, ...servers, env: tracing ? traced : {}, trials: [[job.name]], expectedRecords: expectedRecords(job), expectedNew: expectedRecords(job), timeoutMs: 600_000, pollMs: 200 });
        const exported = sink.bytes() - exportedBefore;
        // A traced run that exported nothing measured nothing of tracing; an untraced one that did was traced.
        if (tracing === (exported === 0)) throw new Error(`a first sync ${tracing ? 'with' : 'without'} tracing exported ${exported} bytes of spans`);
        say(`   ${tracing ? 'traced' : 'untraced'}: ${Math.round(result!.recordsPerS)} records/s${tracing ? `, ${Math.round(exported / 1024)} KiB of spans` : ''}`);
        return { recordsPerS: result!.recordsPerS, spanBytes: exported };
      };
      const { on: tracedSyncs, off: untracedSyncs } = await alternately(ALTERNATIONS, (tracing, alternation) => {
        say(`tracing: a first sync ${tracing ? 'traced (every span sampled)' : 'untraced'} (${alternation + 1} of ${ALTERNATIONS})…`);
        return firstSync(tracing);
      });
      const tracedRates = tracedSyncs.map((sync) => Math.round(sync.recordsPerS));
      const untracedRates = untracedSyncs.map((sync) => Math.round(sync.recordsPerS));
      const spanBytes = tracedSyncs.map((sync) => sync.spanBytes);
      const ratios = tracedRates.map((rate, index) => Number((rate / untracedRates[index]!).toFixed(3)));
      const ratio = median(ratios, (value) => value);
      await mergeModeResults({
        section: 'tracing',
        data: { records, tracedRecordsPerS: tracedRates, untracedRecordsPerS: untracedRates, ratios, spanBytes },
        figures: { tracingFirstSyncRatio: ratio },
        targets: [targetOf(`first sync of ${records / 1e6}M traced (every span sampled) vs untraced`, ratio, '>=', TRACED_WANTED)],
      });
      await writeBenchmarksPage();
      say(`\nfirst sync traced ×${ratio} of untraced (${ratios.join(' / ')})`);
    });
  } finally {
    await sink.close();
  }
}
