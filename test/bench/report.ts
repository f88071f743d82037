import { formatTable } from '../../src/cli/printTable.js';
import { cpuPerMillion, cpuPerMillionRow, cpuPerMillionTarget, type CpuPerMillion } from './cpuPerMillion.js';
import type { Machine, Versions } from './environment.js';
import type { FetchParseLimit } from './fetchParseLimit.js';
import { fastPathTargets, type FastPathGain } from './fastPaths.js';
import { hostsScalingOf, hostsScalingRow, hostsScalingTargets, runsPerSOn, type HostsScaling } from './hostsScaling.js';
import { idleWorkerRow, type IdleWorker } from './idleWorker.js';
import type { MeasuredRuns } from './measureRuns.js';
import type { NaiveLoop } from './naiveLoop.js';
import { ceilingRows, type CeilingPass, type PipelinedCeiling } from './pipelinedCeiling.js';
import type { QueueLimit } from './queueLimit.js';
import { rateBudgetRow, rateBudgetTargets, type RateBudget } from './rateBudget.js';
import { simulatorStartRow, simulatorStartTarget, type SimulatorStart } from './simulatorStart.js';
import { storageGrowthRatio, storageGrowthRow, storageGrowthTarget, type StorageGrowth } from './storageGrowth.js';
import type { UpsertLimit } from './upsertLimit.js';

export interface Sizes {
  /** The txlist run each fast path is measured on, with and without it (100,000 in the full bench). */
  fastPathRecords: number;
  /** Alternations of with and without, per fast path. */
  fastPathAlternations: number;
  /** The large txlist run (1,000,000 in the full bench) at limit 1000. */
  big: number;
  /** How many times the large run and its unchanged re-sync are measured, on emptied tables; and the memory baseline. */
  bigPairs: number;
  /** The memory baseline run at limit 1000 (100,000). */
  baseline: number;
  /** The run at limit 100 (200,000). */
  limit100: number;
  naive: number;
  queueJobs: number;
  queueConcurrency: number;
  smallRuns: number;
  smallRunsConcurrency: number;
  /** Untimed one-page runs before the first trial. */
  smallRunsWarmUp: number;
  smallRunsTrials: number;
  /** Values of the fan-out tick, one one-page run each. */
  fanOutValues: number;
  /** Unchanged re-syncs of the 1M query after one sync, for the storage figure. */
  storageResyncs: number;
  /** How long each rate budget setting is measured. */
  rateBudgetSeconds: number;
  /** Runs of the latency-bound tick measured at 1, 2 and 4 worker hosts. */
  hostsValues: number;
}

/** The ceiling's pass, the naive loop, a first run of the large query and its unchanged re-sync, measured back to back. */
export interface RunPair {
  /** The ceiling's faster method and the naive loop, just before the first run: the machine's speed drifts within minutes. */
  naive: NaiveLoop;
  ceiling: CeilingPass;
  first: MeasuredRuns;
  resync: MeasuredRuns;
}

export interface Measurements {
  fetchParse: FetchParseLimit;
  upsert: UpsertLimit;
  /** The large query through a reference pipeline: fetch ahead, parallel bulk stores; each method once, which picks the method each pair measures. */
  ceiling: PipelinedCeiling;
  queue: QueueLimit;
  /** The first run and re-sync of the median pair. */
  big: MeasuredRuns;
  resync: MeasuredRuns;
  pairs: RunPair[];
  /** The memory baseline's trials (100,000 records each), as many as the pairs. */
  baselines: MeasuredRuns[];
  limit100: MeasuredRuns;
  /** The median trial of the one-page runs. */
  smallRuns: MeasuredRuns;
  smallTrials: MeasuredRuns[];
  /** One tick of a fan-out query over `fanOutValues` values. */
  fanOut: MeasuredRuns;
  simulatorStart: SimulatorStart;
  /** The built `feedsync worker`, idle after start and between runs. */
  idleWorker: IdleWorker;
  /** feedsync's tables after one sync and after unchanged re-syncs. */
  storage: StorageGrowth;
  /** A source's rate limit as the upstream saw it, per setting. */
  rateBudgets: RateBudget[];
  /** What each fast path buys against its removal (FEEDSYNC_FAST_PATHS_OFF). */
  fastPaths: FastPathGain[];
  /** A latency-bound tick at 1, 2 and 4 worker hosts, each a network namespace. */
  hosts: HostsScaling;
}

export interface Target {
  name: string;
  wanted: string;
  value: number;
  met: boolean;
}

export interface Report {
  quick: boolean;
  date: string;
  benchSeconds: number;
  machine: Machine;
  versions: Versions;
  sizes: Sizes;
  notes: string[];
  /** Numbers and labels; cpuSecondsPerMillion is an object and rateBudget a list. */
  figures: Record<string, unknown>;
  ratios: Record<string, number>;
  targets: Target[];
  details: Measurements;
}

const round = (value: number, digits = 0): number => Number(value.toFixed(digits));
const int = (value: number): string => Math.round(value).toLocaleString('en-US');
const n = (value: number): string => value.toLocaleString('en-US');

/** The element whose `value` is the median (the lower middle one for an even count). */
export function median<T>(items: readonly T[], value: (item: T) => number): T {
  const sorted = [...items].sort((a, b) => value(a) - value(b));
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** The re-sync's rate over its first run's. */
export const resyncRatio = (pair: Pick<RunPair, 'first' | 'resync'>): number => pair.resync.recordsPerS / pair.first.recordsPerS;

/** The first run's rate over the ceiling's measured just before it. */
const e2eVsCeilingOf = (pair: RunPair): number => pair.first.recordsPerS / pair.ceiling.recordsPerS;

/** The first run's rate over the naive loop's measured just before it. */
const e2eVsNaiveOf = (pair: RunPair): number => pair.first.recordsPerS / pair.naive.recordsPerS;

const peakRssOf = (run: MeasuredRuns): number => run.memory.peakRssMB;

/** Peak RSS of the large run: the highest of its first runs, for the ceiling on memory. */
const peakRssOfBig = (m: Measurements): number => Math.max(...m.pairs.map((pair) => peakRssOf(pair.first)));

/**
 * The first run and the baseline trial of median peak RSS: their ratio is the memory target's, so that
 * a jump of one run's peak (see docs/benchmarks.md, Peak RSS) counts on neither side more than on the
 * other. The highest over the highest is reported beside it.
 */
const medianPeaks = (m: Measurements): { big: MeasuredRuns; baseline: MeasuredRuns } => ({
  big: median(m.pairs.map((pair) => pair.first), peakRssOf),
  baseline: median(m.baselines, peakRssOf),
});

export function buildReport(quick: boolean, sizes: Sizes, m: Measurements, context: { machine: Machine; versions: Versions; benchSeconds: number; notes: string[] }): Report {
  const limit = Math.min(m.fetchParse.recordsPerS, m.upsert.bestPerS);
  const peakRss1m = peakRssOfBig(m);
  const medians = medianPeaks(m);
  const cpu = cpuPerMillion(m.big, m.resync);
  const ceilingPair = median(m.pairs, e2eVsCeilingOf);
  const naivePair = median(m.pairs, e2eVsNaiveOf);
  const figures = {
    rawFetchParsePerS: round(m.fetchParse.recordsPerS),
    rawFetchParsePagesPerS: round(m.fetchParse.pagesPerS, 1),
    rawFetchParseMBPerS: round(m.fetchParse.mbPerS, 1),
    rawUpsertPerS: round(m.upsert.bestPerS),
    rawUpsertMethod: m.upsert.best,
    rawUpsertMultiRowPerS: round(m.upsert.perMethod.multiRow),
    rawUpsertUnnestPerS: round(m.upsert.perMethod.unnest),
    rawUpsertUnnestLinesPerS: round(m.upsert.perMethod.unnestLines),
    rawUpsertCopyPerS: round(m.upsert.perMethod.copy),
    // The ceiling of the pair of the median e2e / ceiling ratio (the ratio's two sides measured back to back), which need not be the pair of e2eRecordsPerS.
    ceilingRecordsPerS: round(ceilingPair.ceiling.recordsPerS),
    ceilingMethod: m.ceiling.best.method,
    ceilingPairsRecordsPerS: m.pairs.map((pair) => round(pair.ceiling.recordsPerS)).join(' / '),
    e2eVsCeilingPairs: m.pairs.map((pair) => round(e2eVsCeilingOf(pair), 3)).join(' / '),
    ceilingPassesRecordsPerS: m.ceiling.passes.map((pass) => `${pass.method} ${round(pass.recordsPerS)}`).join(' / '),
    rawQueueJobsPerS: round(m.queue.jobsPerS),
    // As the ceiling: the naive loop of the pair of the median e2e / naive ratio.
    naivePerS: round(naivePair.naive.recordsPerS),
    naivePairsPerS: m.pairs.map((pair) => round(pair.naive.recordsPerS)).join(' / '),
    e2eVsNaivePairs: m.pairs.map((pair) => round(e2eVsNaiveOf(pair), 2)).join(' / '),
    e2eRecordsPerS: round(m.big.recordsPerS),
    e2ePagesPerS: round(m.big.pagesPerS, 1),
    e2eSeconds: round(m.big.seconds, 2),
    e2ePairsRecordsPerS: m.pairs.map((pair) => round(pair.first.recordsPerS)).join(' / '),
    resyncPairsRecordsPerS: m.pairs.map((pair) => round(pair.resync.recordsPerS)).join(' / '),
    resyncVsFirstPairs: m.pairs.map((pair) => round(resyncRatio(pair), 3)).join(' / '),
    e2eLimit100RecordsPerS: round(m.limit100.recordsPerS),
    e2eLimit100PagesPerS: round(m.limit100.pagesPerS, 1),
    resyncRecordsPerS: round(m.resync.recordsPerS),
    // The baseline trial of median peak RSS.
    baselineRecordsPerS: round(medians.baseline.recordsPerS),
    cpuSecondsPerMillion: cpu,
    smallRunsPerS: round(m.smallRuns.runsPerS, 1),
    smallRunsTrialsPerS: m.smallTrials.map((trial) => round(trial.runsPerS, 1)).join(' / '),
    fanOutRunsPerS: round(m.fanOut.runsPerS, 1),
    peakRss1mMB: round(peakRss1m, 1),
    peakRss1mMedianMB: round(peakRssOf(medians.big), 1),
    peakRss1mTrialsMB: m.pairs.map((pair) => round(peakRssOf(pair.first), 1)).join(' / '),
    // The median trial's, as peakRss1mMedianMB: the memory ratio's two sides.
    peakRss100kMB: round(peakRssOf(medians.baseline), 1),
    peakRss100kTrialsMB: m.baselines.map((trial) => round(peakRssOf(trial), 1)).join(' / '),
    peakRssLimit100MB: round(m.limit100.memory.peakRssMB, 1),
    peakRssResyncMB: round(m.resync.memory.peakRssMB, 1),
    peakRssSmallRunsMB: round(m.smallRuns.memory.peakRssMB, 1),
    // The built worker idle between runs: what a deployment holds while it waits for work.
    idleRssMB: round(m.idleWorker.betweenRunsRssMB, 1),
    benchWorkerStartRssMB: round(m.big.memory.startRssMB, 1),
    idleWorkerBeforeRunsRssMB: round(m.idleWorker.beforeRunsRssMB, 1),
    idleWorkerBetweenRunsRssMB: round(m.idleWorker.betweenRunsRssMB, 1),
    storageAfterFirstMB: round(m.storage.afterFirstMB, 1),
    storageAfterResyncsMB: round(m.storage.afterResyncsMB, 1),
    fastPathGains: m.fastPaths.map((gain) => ({ path: gain.path, firstSync: round(gain.firstSync.median, 3), firstSyncRatios: gain.firstSync.ratios.map((ratio) => round(ratio, 3)).join(' / '), resync: round(gain.resync.median, 3), resyncRatios: gain.resync.ratios.map((ratio) => round(ratio, 3)).join(' / ') })),
    rateBudget: m.rateBudgets.map((budget) => ({ max: budget.max, durationMs: budget.durationMs, workers: budget.workers, achievedPerS: round(budget.achievedPerS, 2), maxInAnyWindow: budget.maxInAnyWindow })),
    hostsRunsPerS1: round(runsPerSOn(m.hosts, 1), 1),
    hostsRunsPerS2: round(runsPerSOn(m.hosts, 2), 1),
    hostsRunsPerS4: round(runsPerSOn(m.hosts, 4), 1),
    hostsScaling2: hostsScalingOf(m.hosts, 2),
    hostsScaling4: hostsScalingOf(m.hosts, 4),
  };
  const ratios = {
    e2eVsLimit: round(m.big.recordsPerS / limit, 3),
    e2eVsCeiling: round(e2eVsCeilingOf(ceilingPair), 3),
    e2eLimit100VsLimit: round(m.limit100.recordsPerS / limit, 3),
    resyncVsFirst: round(resyncRatio({ first: m.big, resync: m.resync }), 3),
    e2eVsNaive: round(e2eVsNaiveOf(naivePair), 2),
    rss1mVs100k: round(peakRssOf(medians.big) / peakRssOf(medians.baseline), 3),
    rss1mVs100kHighest: round(peakRss1m / Math.max(...m.baselines.map(peakRssOf)), 3),
    fanOutVsOnePageRuns: round(m.fanOut.runsPerS / m.smallRuns.runsPerS, 3),
    storageResyncsVsFirst: storageGrowthRatio(m.storage),
  };
  const targets: Target[] = [
    { name: 'e2e (limit 1000) vs min(raw fetch+parse, raw upsert)', wanted: '>= 0.6', value: ratios.e2eVsLimit, met: ratios.e2eVsLimit >= 0.6 },
    { name: 'e2e (limit 1000) vs pipelined ceiling', wanted: '>= 0.9', value: ratios.e2eVsCeiling, met: ratios.e2eVsCeiling >= 0.9 },
    cpuPerMillionTarget(cpu),
    { name: 'unchanged re-sync vs first run', wanted: '>= 3', value: ratios.resyncVsFirst, met: ratios.resyncVsFirst >= 3 },
    { name: 'e2e vs naive loop', wanted: '>= 10', value: ratios.e2eVsNaive, met: ratios.e2eVsNaive >= 10 },
    { name: `peak RSS ${n(sizes.big)} vs ${n(sizes.baseline)} (median runs)`, wanted: '<= 1.2', value: ratios.rss1mVs100k, met: ratios.rss1mVs100k <= 1.2 },
    { name: `peak RSS ${n(sizes.big)} (MB)`, wanted: '<= 250', value: figures.peakRss1mMB, met: figures.peakRss1mMB <= 250 },
    { name: `${n(sizes.smallRuns)} one-page runs (runs/s)`, wanted: '>= 800', value: figures.smallRunsPerS, met: figures.smallRunsPerS >= 800 },
    // A tick of N values must cost per run what N queries of a job do: nothing that grows with N.
    { name: `fan-out of ${n(sizes.fanOutValues)} values vs ${n(sizes.smallRuns)} one-page runs (runs/s)`, wanted: '>= 0.8', value: ratios.fanOutVsOnePageRuns, met: ratios.fanOutVsOnePageRuns >= 0.8 },
    storageGrowthTarget(m.storage),
    simulatorStartTarget(m.simulatorStart),
    ...rateBudgetTargets(m.rateBudgets),
    ...fastPathTargets(m.fastPaths),
    ...hostsScalingTargets(m.hosts),
  ];
  return { quick, date: new Date().toISOString(), benchSeconds: round(context.benchSeconds, 1), machine: context.machine, versions: context.versions, sizes, notes: context.notes, figures, ratios, targets, details: m };
}

export function formatReport(report: Report): string {
  const { details: m, sizes, figures, ratios } = report;
  const run = (r: MeasuredRuns) => `${int(r.recordsPerS)} records/s, ${r.pagesPerS.toFixed(1)} pages/s (${r.pages} pages, ${r.seconds.toFixed(1)} s)`;
  const several = (runs: readonly unknown[], text: string) => (runs.length > 1 ? text : '');
  const medians = medianPeaks(m);
  const rss = (r: MeasuredRuns) => `peak RSS ${r.memory.peakRssMB.toFixed(0)} MB (at start ${r.memory.startRssMB.toFixed(0)} MB)`;
  const rows: string[][] = [
    ['1', 'raw fetch + JSON.parse (undici, 1 connection)', `${n(m.fetchParse.records)} records`, `${int(m.fetchParse.recordsPerS)} records/s, ${m.fetchParse.pagesPerS.toFixed(1)} pages/s, ${m.fetchParse.mbPerS.toFixed(1)} MB/s`, ''],
    ['1', 'raw bulk upsert, multi-row VALUES', `${n(m.upsert.records)} records, ${m.upsert.batch}/stmt`, `${int(m.upsert.perMethod.multiRow)} records/s`, ''],
    ['1', 'raw bulk upsert, unnest of text arrays', `${n(m.upsert.records)} records, ${m.upsert.batch}/stmt`, `${int(m.upsert.perMethod.unnest)} records/s`, ''],
    ['1', 'raw bulk upsert, unnest + payloads as lines', `${n(m.upsert.records)} records, ${m.upsert.batch}/stmt`, `${int(m.upsert.perMethod.unnestLines)} records/s`, ''],
    ['1', 'raw bulk upsert, COPY into staging', `${n(m.upsert.records)} records, ${m.upsert.batch}/stmt`, `${int(m.upsert.perMethod.copy)} records/s`, `best: ${m.upsert.best}`],
    ...ceilingRows(m.ceiling),
    ['1', 'raw BullMQ, empty processor', `${n(m.queue.jobs)} jobs, concurrency ${m.queue.concurrency}`, `${int(m.queue.jobsPerS)} jobs/s`, `addBulk ${int(m.queue.addedPerS)} jobs/s`],
    ['2', 'naive loop (INSERT per record), before each pair', `${n(m.pairs[0]!.naive.records)} records`, `${int(figures.naivePerS as number)} records/s in the pair of the median ratio`, `${figures.naivePairsPerS as string} records/s`],
    ['3', 'feedsync e2e, limit 1000', `${n(m.big.records)} records`, run(m.big), `x${ratios.e2eVsLimit} of limit`],
    ['3', 'feedsync e2e vs the naive loop just before it', `${m.pairs.length} pair(s)`, `x${ratios.e2eVsNaive} (median)`, `x${figures.e2eVsNaivePairs as string}`],
    ['3', 'feedsync e2e, limit 100', `${n(m.limit100.records)} records`, run(m.limit100), `x${ratios.e2eLimit100VsLimit} of limit`],
    ['3', 'feedsync e2e vs the ceiling before it', `${m.pairs.length} pair(s)`, `x${ratios.e2eVsCeiling} (median)`, `x${figures.e2eVsCeilingPairs as string} of ${figures.ceilingPairsRecordsPerS as string} records/s`],
    cpuPerMillionRow(figures.cpuSecondsPerMillion as CpuPerMillion),
    ['4', 'feedsync unchanged re-sync, limit 1000', `${n(m.resync.records)} records`, run(m.resync), `x${ratios.resyncVsFirst} of first run${several(m.pairs, `, median pair of x${figures.resyncVsFirstPairs as string}`)}`],
    ['5', 'one-page runs through the queue', `${n(m.smallRuns.runs)} runs, concurrency ${sizes.smallRunsConcurrency}`, `${m.smallRuns.runsPerS.toFixed(1)} runs/s (${m.smallRuns.seconds.toFixed(2)} s)`, `median of ${m.smallTrials.map((trial) => trial.runsPerS.toFixed(1)).join(' / ')}`],
    ['5', 'fan-out: one tick of one-page runs, one per value', `${n(m.fanOut.runs)} values, concurrency ${sizes.smallRunsConcurrency}`, `${m.fanOut.runsPerS.toFixed(1)} runs/s (${m.fanOut.seconds.toFixed(2)} s)`, `x${ratios.fanOutVsOnePageRuns} of one-page runs`],
    ['6', `worker memory, ${n(sizes.baseline)} at limit 1000`, `${n(m.baselines[0]!.records)} records`, `peak RSS ${peakRssOf(medians.baseline).toFixed(0)} MB${several(m.baselines, ' (median)')}`, several(m.baselines, `of ${figures.peakRss100kTrialsMB as string} MB`)],
    ['6', `worker memory, ${n(sizes.big)} at limit 1000`, `${n(m.big.records)} records`, `peak RSS ${peakRssOf(medians.big).toFixed(0)} MB${several(m.pairs, ` (median), ${peakRssOfBig(m).toFixed(0)} MB highest`)}`, `x${ratios.rss1mVs100k} of ${n(sizes.baseline)}${several(m.pairs, ` (medians), x${ratios.rss1mVs100kHighest} (highest), of ${figures.peakRss1mTrialsMB as string} MB`)}`],
    ['6', `worker memory, ${n(sizes.limit100)} at limit 100`, `${n(m.limit100.records)} records`, rss(m.limit100), ''],
    ['6', 'worker memory, re-sync / one-page runs', '', `peak RSS ${m.resync.memory.peakRssMB.toFixed(0)} MB / ${m.smallRuns.memory.peakRssMB.toFixed(0)} MB`, ''],
    storageGrowthRow(m.storage),
    simulatorStartRow(m.simulatorStart),
    idleWorkerRow(m.idleWorker),
    ...m.rateBudgets.map(rateBudgetRow),
    hostsScalingRow(m.hosts),
  ];
  const header = `feedsync bench${report.quick ? ' (QUICK: smaller sizes)' : ''} — ${report.date}
machine: ${report.machine.cpus} cpus (${report.machine.cpuModel}), ${(report.machine.memoryMB / 1024).toFixed(1)} GB, ${report.machine.platform}
versions: node ${report.versions.node}, PostgreSQL ${report.versions.postgres}, Redis ${report.versions.redis}, bullmq ${report.versions.bullmq}, undici ${report.versions.undici}
`;
  const cpu = formatTable(
    ['CPU seconds over the measured time', 'worker', 'postgres', 'redis', 'simulator'],
    (
      [
        ['e2e, limit 1000', m.big],
        ['unchanged re-sync', m.resync],
        ['e2e, limit 100', m.limit100],
        ['one-page runs (median trial)', m.smallRuns],
        ['fan-out', m.fanOut],
        [`pipelined ceiling (${m.ceiling.best.method}, the pair of the median e2e / ceiling ratio; worker: the bench process)`, median(m.pairs, e2eVsCeilingOf).ceiling],
      ] as const
    ).map(([label, r]) => [label, r.cpu.worker, r.cpu.postgres, r.cpu.redis, r.cpu.simulator]),
  );
  const fastPaths = formatTable(
    ['fast path (docs/benchmarks.md)', 'first sync, with over without', 're-sync, with over without'],
    m.fastPaths.map((gain) => [gain.path, `x${gain.firstSync.median.toFixed(3)} (${gain.firstSync.ratios.map((ratio) => ratio.toFixed(2)).join(' / ')})`, `x${gain.resync.median.toFixed(3)} (${gain.resync.ratios.map((ratio) => ratio.toFixed(2)).join(' / ')})`]),
  );
  const targets = formatTable(
    ['target', 'wanted', 'value', 'met'],
    report.targets.map((target) => [target.name, target.wanted, target.value, target.met ? 'yes' : 'NO']),
  );
  return `${header}\n${formatTable(['#', 'measurement', 'size', 'result', 'note'], rows)}\n${cpu}\n${fastPaths}\n${targets}\nlimit = min(raw fetch+parse ${int(figures.rawFetchParsePerS as number)}, raw upsert ${int(figures.rawUpsertPerS as number)}) records/s; ceiling = pipelined ${m.ceiling.best.method}, ${int(figures.ceilingRecordsPerS as number)} records/s in the pair of the median e2e / ceiling ratio\n${report.notes.map((note) => `note: ${note}`).join('\n')}\nbench took ${report.benchSeconds} s\n`;
}
