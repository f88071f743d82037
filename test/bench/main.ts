/**
 * `npm run bench [-- --quick] [-- --cpu-prof-dir DIR]`, or a mode of its own: `-- --scale` (scaleBench.ts),
 * `-- --analytics` (analyticsBench.ts), `-- --tracing` (tracingBench.ts). The full bench: feedsync's throughput and memory against
 * its limits on this machine, in one run. Upstream is the bundled simulator in a child process;
 * Redis and Postgres are throwaway local servers (or REDIS_URL / DATABASE_URL). Prints one table
 * and writes test/bench/results.json (results.quick.json with --quick).
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { benchConfigTree, expectedRecords, TX_RUN_CONCURRENCY, txListJob, type TxListJob } from './benchConfig.js';
import { machine, versions } from './environment.js';
import { writeBenchmarksPage } from './benchmarksPage.js';
import { fastPathLines, measureFastPaths } from './fastPaths.js';
import { measureFetchParse } from './fetchParseLimit.js';
import { measureHostsScaling } from './hostsScaling.js';
import { measureIdleWorker } from './idleWorker.js';
import { measureRuns, type MeasuredRuns } from './measureRuns.js';
import { measureNaiveLoop } from './naiveLoop.js';
import { measureCeilingPass, measurePipelinedCeiling } from './pipelinedCeiling.js';
import { measureQueue } from './queueLimit.js';
import { measureRateBudget, type RateBudget, type RateBudgetSetting } from './rateBudget.js';
import { buildReport, formatReport, median, resyncRatio, type RunPair, type Sizes } from './report.js';
import { emptyFeedsyncTables } from './settleDatabase.js';
import type { SimulatorUrls } from './simulatorProcess.js';
import { withBenchStack } from './benchStack.js';
import { say } from './modeArgs.js';
import { measureSimulatorStart } from './simulatorStart.js';
import { measureStorageGrowth } from './storageGrowth.js';
import type { TxQuery } from './txPages.js';
import { measureUpsert } from './upsertLimit.js';
import { runScaleBench } from './scaleBench.js';
import { runAnalyticsBench } from './analyticsBench.js';
import { runTracingBench } from './tracingBench.js';
import { keptModeResults } from './modeResults.js';

const args = process.argv.slice(2);
if (args.includes('--scale')) {
  await runScaleBench(args);
  process.exit(0);
}
if (args.includes('--analytics')) {
  await runAnalyticsBench(args);
  process.exit(0);
}
if (args.includes('--tracing')) {
  await runTracingBench(args);
  process.exit(0);
}
const quick = args.includes('--quick');
const profileAt = args.indexOf('--cpu-prof-dir');
const cpuProfDir = profileAt >= 0 ? args[profileAt + 1] : undefined;
const nodeArgs = cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : [];

const SIZES: Sizes = quick
  ? { fastPathRecords: 20_000, fastPathAlternations: 1, big: 200_000, bigPairs: 1, baseline: 20_000, limit100: 20_000, naive: 5_000, queueJobs: 5_000, queueConcurrency: 50, smallRuns: 1_000, smallRunsConcurrency: 64, smallRunsWarmUp: 1_000, smallRunsTrials: 1, fanOutValues: 2_000, storageResyncs: 5, rateBudgetSeconds: 20, hostsValues: 100 }
  : { fastPathRecords: 100_000, fastPathAlternations: 3, big: 1_000_000, bigPairs: 3, baseline: 100_000, limit100: 200_000, naive: 20_000, queueJobs: 20_000, queueConcurrency: 50, smallRuns: 2_000, smallRunsConcurrency: 64, smallRunsWarmUp: 2_000, smallRunsTrials: 3, fanOutValues: 10_000, storageResyncs: 5, rateBudgetSeconds: 60, hostsValues: 400 };

/** Block ranges that do not overlap (10 txs of the hot address per block): every first run's records are new. */
const BIG = txListJob('tx-big', SIZES.big, 0, 1000);
const LIMIT100 = txListJob('tx-limit100', SIZES.limit100, 100_000, 100);
/** The memory baseline's trials, as many as the large run's pairs: LIMIT100's blocks, each under a records kind of its own, so that each is a first sync. */
const BASELINES = Array.from({ length: SIZES.bigPairs }, (_, trial) => txListJob(`tx-baseline-${trial + 1}`, SIZES.baseline, 100_000, 1000, `transaction_baseline_${trial + 1}`));
/** A label's ` (pair 2 of 3)`, when there are several. */
const nthOf = (what: string, nth: number, count: number): string => (count > 1 ? ` (${what} ${nth} of ${count})` : '');
/** The explorer's rate limit shared by several worker processes, and one process alone under a tighter one. */
const RATE_BUDGETS: RateBudgetSetting[] = [
  { max: 20, durationMs: 1000, workers: 4 },
  { max: 5, durationMs: 1000, workers: 1 },
];


function txQuery(sim: SimulatorUrls, job: TxListJob): TxQuery {
  return { explorerBaseUrl: sim.explorerBaseUrl, apiKey: sim.apiKey, address: sim.hotAddress, startblock: job.startblock, endblock: job.endblock, limit: job.limit };
}

const benchStarted = performance.now();
say(`feedsync bench${quick ? ' --quick' : ''}: starting Redis, Postgres (or REDIS_URL / DATABASE_URL) and the simulator…`);
await withBenchStack(async ({ sim, redisUrl, databaseUrl, servers: shared }) => {
  const env = { machine: machine(), versions: await versions(databaseUrl, redisUrl) };
  say('simulator start in this process, default sizes vs a hundredth…');
  const simulatorStart = await measureSimulatorStart();
  say(`   ${simulatorStart.defaultMs.toFixed(1)} ms vs ${simulatorStart.hundredthMs.toFixed(1)} ms`);
  /** What every measured run shares: the servers, the simulator, the node flags. */
  const servers = { ...shared, nodeArgs };

  say(`1. limits: raw fetch + parse of ${SIZES.big.toLocaleString('en-US')} txs at limit 1000…`);
  const fetchParse = await measureFetchParse(txQuery(sim, BIG));
  say(`   ${Math.round(fetchParse.recordsPerS)} records/s`);
  say('1. limits: raw bulk upsert of the same records (multi-row, unnest, unnest + lines, COPY)…');
  const upsert = await measureUpsert(databaseUrl, txQuery(sim, BIG));
  say(`   best ${upsert.best}: ${Math.round(upsert.bestPerS)} records/s`);
  say('1. limits: pipelined ceiling, the same pages fetched ahead and stored over parallel connections (COPY, unnest + lines)…');
  const ceiling = await measurePipelinedCeiling(databaseUrl, txQuery(sim, BIG), expectedRecords(BIG), servers.simulatorPid);
  say(`   ${ceiling.passes.map((pass) => `${pass.method} ${Math.round(pass.recordsPerS)}`).join(', ')} records/s`);
  say(`1. limits: BullMQ, ${SIZES.queueJobs} jobs with an empty processor…`);
  const queue = await measureQueue(redisUrl, SIZES.queueJobs, SIZES.queueConcurrency);
  say(`   ${Math.round(queue.jobsPerS)} jobs/s`);

  const txRun = async (label: string, job: TxListJob, expectedNew: number): Promise<MeasuredRuns> => {
    const { tree, webhookUuid } = benchConfigTree({ sim, txJobs: [job], concurrency: TX_RUN_CONCURRENCY });
    say(`${label}…`);
    const [result] = (await measureRuns({
      configTree: tree,
      webhookUuid,
      ...servers,
      trials: [[job.name]],
      expectedRecords: expectedRecords(job),
      expectedNew,
      timeoutMs: 600_000,
      pollMs: 200,
    })) as [MeasuredRuns];
    say(`   ${Math.round(result.recordsPerS)} records/s, ${result.pagesPerS.toFixed(1)} pages/s, ${result.seconds.toFixed(1)} s, peak RSS ${result.memory.peakRssMB.toFixed(0)} MB`);
    return result;
  };
  const pairs: RunPair[] = [];
  for (let pair = 1; pair <= SIZES.bigPairs; pair++) {
    if (pair > 1) await emptyFeedsyncTables(databaseUrl);
    const of = nthOf('pair', pair, SIZES.bigPairs);
    say(`1. the pipelined ceiling (${ceiling.best.method}) again, before feedsync's run${of}…`);
    const pairCeiling = await measureCeilingPass(databaseUrl, txQuery(sim, BIG), expectedRecords(BIG), servers.simulatorPid, ceiling.best.method);
    say(`   ${Math.round(pairCeiling.recordsPerS)} records/s`);
    say(`2. naive loop over ${SIZES.naive} records, just before feedsync's run${of}…`);
    const naive = await measureNaiveLoop(databaseUrl, txQuery(sim, txListJob('naive', SIZES.naive, 0, 1000)));
    say(`   ${Math.round(naive.recordsPerS)} records/s`);
    const first = await txRun(`3. feedsync end to end: ${expectedRecords(BIG)} txs at limit 1000${of}`, BIG, expectedRecords(BIG));
    const resync = await txRun(`4. the same query again, unchanged${of}`, BIG, 0);
    pairs.push({ naive, ceiling: pairCeiling, first, resync });
  }
  // The machine's speed drifts by tens of percent within minutes; the median pair's first run and
  // re-sync, measured back to back, speak for items 3 and 4.
  const { first: big, resync } = median(pairs, resyncRatio);
  const storage = await measureStorageGrowth(databaseUrl, expectedRecords(BIG), SIZES.storageResyncs, (label, expectedNew) => txRun(label, BIG, expectedNew));
  const baselines: MeasuredRuns[] = [];
  for (const [trial, job] of BASELINES.entries()) {
    const of = nthOf('trial', trial + 1, BASELINES.length);
    baselines.push(await txRun(`6. memory baseline: ${expectedRecords(job)} txs at limit 1000${of}`, job, expectedRecords(job)));
  }
  const limit100 = await txRun(`3. feedsync end to end: ${expectedRecords(LIMIT100)} txs at limit 100`, LIMIT100, expectedRecords(LIMIT100));

  say(`5. ${SIZES.smallRuns} one-page runs through the queue, worker concurrency ${SIZES.smallRunsConcurrency}, ${SIZES.smallRunsTrials} trial(s)…`);
  const small = benchConfigTree({
    sim,
    txJobs: [],
    blockQueries: SIZES.smallRuns,
    blockJobs: SIZES.smallRunsTrials,
    warmUpQueries: SIZES.smallRunsWarmUp,
    concurrency: SIZES.smallRunsConcurrency,
  });
  const smallTrials = await measureRuns({
    configTree: small.tree,
    webhookUuid: small.webhookUuid,
    ...servers,
    warmUpJobs: ['blocks-warmup'],
    trials: Array.from({ length: SIZES.smallRunsTrials }, (_, trial) => [`blocks-${trial + 1}`]),
    expectedRecords: SIZES.smallRuns,
    expectedNew: SIZES.smallRuns,
    timeoutMs: 300_000,
    pollMs: 500,
  });
  smallTrials.forEach((trial, index) => say(`   trial ${index + 1}: ${trial.runsPerS.toFixed(1)} runs/s`));
  const smallRuns = median(smallTrials, (trial) => trial.runsPerS);
  say(`   median: ${smallRuns.runsPerS.toFixed(1)} runs/s`);

  say(`5. a fan-out tick of ${SIZES.fanOutValues} values, one one-page run each, worker concurrency ${SIZES.smallRunsConcurrency}…`);
  const fanOutConfig = benchConfigTree({ sim, txJobs: [], warmUpQueries: SIZES.smallRunsWarmUp, fanOutValues: SIZES.fanOutValues, concurrency: SIZES.smallRunsConcurrency });
  const [fanOut] = await measureRuns({
    configTree: fanOutConfig.tree,
    webhookUuid: fanOutConfig.webhookUuid,
    ...servers,
    warmUpJobs: ['blocks-warmup'],
    trials: [['blocks-fanout']],
    expectedRecords: SIZES.fanOutValues,
    expectedNew: SIZES.fanOutValues,
    timeoutMs: 600_000,
    pollMs: 500,
  });
  say(`   ${fanOut!.runsPerS.toFixed(1)} runs/s`);

  say('7. the built `feedsync worker` on the example config, idle after start and after a run…');
  const idleWorker = await measureIdleWorker({ sim, redisUrl, databaseUrl, idleMs: 30_000 });
  say(`   RSS ${idleWorker.beforeRunsRssMB.toFixed(0)} MB before any run, ${idleWorker.betweenRunsRssMB.toFixed(0)} MB between runs`);
  say(`9. fast paths against their removal: ${SIZES.fastPathRecords.toLocaleString('en-US')} txs at limit 1000, first sync and re-sync, with and without each, ${SIZES.fastPathAlternations} alternation(s)…`);
  const fastPaths = await measureFastPaths({ sim, servers, job: txListJob('tx-fast-paths', SIZES.fastPathRecords, 0, 1000), alternations: SIZES.fastPathAlternations, say });
  for (const line of fastPathLines(fastPaths)) say(`   ${line}`);
  say(`10. worker hosts: a latency-bound fan-out tick of ${SIZES.hostsValues} values on 1, 2 and 4 worker hosts, each a network namespace…`);
  const hosts = await measureHostsScaling(SIZES.hostsValues, say);

  // Last: stopping its workers cuts runs, which it then removes (its own queue prefix and records kind).
  const rateBudgets: RateBudget[] = [];
  for (const setting of RATE_BUDGETS) {
    say(`8. rate budget: max ${setting.max} per ${setting.durationMs} ms, ${setting.workers} worker process(es), ${SIZES.rateBudgetSeconds} s of one-page runs…`);
    const budget = await measureRateBudget({ sim, redisUrl, databaseUrl, setting, windowSeconds: SIZES.rateBudgetSeconds, nodeArgs });
    say(`   ${budget.achievedPerS.toFixed(2)} requests/s, most in any ${setting.durationMs} ms: ${budget.maxInAnyWindow}`);
    rateBudgets.push(budget);
  }

  const notes = [
    'upstream: the bundled simulator in its own process, head frozen at block 120,000; no rate limit configured',
    'e2e times run from the first enqueue to the last completion notice received by the simulator webhook receiver',
    'before each e2e phase (untimed): VACUUM (ANALYZE) of feedsync tables and CHECKPOINT, so no phase pays for the previous one',
    `items 3 and 4: ${SIZES.bigPairs} pair(s) of first run and unchanged re-sync, feedsync's tables emptied (untimed) before each pair after the first, each pair's first run just after a ceiling pass and then a naive loop of its own (the machine's speed drifts by tens of percent within minutes: each ratio's two sides are measured back to back); e2eVsCeiling and e2eVsNaive are the medians of the pairs' ratios (ceilingRecordsPerS and naivePerS from the pair of each median ratio, which need not be the pair of the other figures), the other figures the pair with the median re-sync / first ratio, and peak RSS at ${SIZES.big} is the highest of all first runs`,
    'every measured phase runs in a fresh worker process, `feedsync worker` as it ships (node dist/cli/main.js, dist/ rebuilt first if a source is newer), the one-page trials all in one; peak RSS is its VmHWM',
    `worker concurrency: ${TX_RUN_CONCURRENCY} for the txlist runs (one run at a time), ${SIZES.smallRunsConcurrency} for the one-page runs (a worker may keep a keep-alive connection to a source for each request its runs can have in flight, 3 a run); notices are delivered by the notify queue's drains, webhook.concurrency (10) at a time`,
    `one-page runs: ${SIZES.smallRunsTrials} trial(s) of ${SIZES.smallRuns} runs, one after another in one worker process, each on blocks of its own; the figure is the median trial. Before the first, ${SIZES.smallRunsWarmUp} untimed warm-up runs; before each, VACUUM (ANALYZE): the worker's code compiled and its cached plans made for tables of a live size, as in a worker that has run a while`,
    `storage: feedsync's tables (with indexes and TOAST) after one sync of ${expectedRecords(BIG)} txs into empty tables, then after ${SIZES.storageResyncs} unchanged re-syncs of the same query, each in a fresh worker process; each page body is stored once (page_bodies), a re-sync adds envelope rows`,
    `fan-out: one tick of a query with forEach over ${SIZES.fanOutValues} blocks (one one-page run each, each run's notice too, as for the one-page runs), in a fresh worker process after the same warm-up; from the enqueue (which opens the tick and its runs in Postgres and queues them in bulk) to the last run's notice`,
    'cpu: user + system seconds of the worker and simulator processes, and of every postgres and redis-server process on the machine, over the measured time',
    `the raw upsert times only the upserts (serialise + hash + statement), one page (${upsert.batch} records) per statement, autocommit or one transaction (COPY); limit = the best method`,
    `pipelined ceiling: the ${expectedRecords(BIG)}-record query's pages fetched and parsed with feedsync's ${ceiling.httpConnections} HTTP connections and ${ceiling.lookAhead} pages ahead, records serialised and hashed (sha1) and bodies hashed (sha256) as feedsync does, within a result window, from its second page on, each page's request leaving with the one before it, once the page before that is prepared, as feedsync's guessed requests do from a run's fourth page; each page stored (records inserted with no ON CONFLICT, as feedsync inserts a first sync's, envelope, body as json) by the next free of ${ceiling.storeConnections} Postgres connections into empty tables like feedsync's in a scratch schema, without feedsync's per-page run checkpoint and change ticket (pages commit in any order); once with COPY + insert, once with unnest + lines; ceilingMethod = the faster; before each pair's first run, that method's pass again (ceilingPairsRecordsPerS), and e2eVsCeiling = the median of each first run's rate over the pass before it (e2eVsCeilingPairs), ceilingRecordsPerS the pass of the pair of that median`,
    'cpuSecondsPerMillion: the worker\'s and Postgres\'s CPU seconds in the median pair\'s first run and re-sync, each scaled to 1,000,000 records (total = worker + postgres)',
    `memory baseline: ${SIZES.bigPairs} trial(s) of ${SIZES.baseline} txs at limit 1000, each under a records kind of its own ("transaction_baseline_1" and on; the limit-100 run's blocks), each in a fresh worker process; rss1mVs100k = the median first run's peak RSS (VmHWM) over the median trial's, rss1mVs100kHighest = the highest over the highest; baselineRecordsPerS is the median trial's`,
    `idle worker: \`node dist/cli/main.js worker\` (dist/ rebuilt first if a source is newer), on feedsync.yaml with the simulator's URLs; its VmRSS ${idleWorker.idleSeconds} s after /readyz first answers 200, then ${idleWorker.idleSeconds} s after \`feedsync enqueue transactions --wait\` (20,010 records) returns`,
    `fast paths: each of FEEDSYNC_FAST_PATHS_OFF's paths, and paging.guessNextPage, measured against its removal: ${SIZES.fastPathAlternations} alternation(s) of a first sync of ${SIZES.fastPathRecords} txs into emptied tables and then the same unchanged, in a fresh worker with the path and in one without (the order flipped each alternation); each figure the median of with / without`,
    'idleRssMB: the idle worker between runs (idleWorkerBetweenRunsRssMB); benchWorkerStartRssMB: the worker of the 1M run once /readyz answered, before any job',
    `worker hosts: Postgres, Redis, the simulator and each worker on a network namespace host of its own (test/support/netns: veth pairs on a bridge, a private /24), the music endpoint answering after ${hosts.latencyMs} ms; at 1, 2 and 4 hosts, fresh \`feedsync worker\` processes as shipped (concurrency ${hosts.concurrency} each), an untimed warm-up tick, then a fan-out tick of ${SIZES.hostsValues} users' recent plays (one run each, 2 to 5 pages of 10, no notices) under a records kind of its own; runs/s from the tick's opening by \`feedsync enqueue\` to its last run's end (job_ticks); hostsScaling2 and hostsScaling4 = runs/s at 2 and 4 hosts over 1`,
    `rate budget: the explorer limited to max requests per durationMs (shared in Redis), that many worker processes on one config (concurrency 8 each) with one-page runs queued; arrival times are the simulator's; the ${SIZES.rateBudgetSeconds} s window opens 2 s after the first request; achievedPerS = requests from the window's first to a whole number of budgets later (so no wave is half counted), maxInAnyWindow = most arrivals in any durationMs from the first request on`,
  ];
  const report = buildReport(quick, SIZES, { fetchParse, upsert, ceiling, queue, big, resync, pairs, baselines, limit100, smallRuns, smallTrials, fanOut: fanOut!, simulatorStart, idleWorker, storage, rateBudgets, fastPaths, hosts }, { ...env, benchSeconds: (performance.now() - benchStarted) / 1000, notes });
  const file = fileURLToPath(new URL(quick ? './results.quick.json' : './results.json', import.meta.url));
  // The scale mode's figures, measured apart (--scale), stay until it runs again.
  await writeFile(file, `${JSON.stringify(quick ? report : await keptModeResults(report), null, 2)}\n`);
  if (!quick) await writeBenchmarksPage();
  say(`\n${formatReport(report)}results: ${file}`);
});
