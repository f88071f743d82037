import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { replaceBlock } from '../docs/generatedBlock.js';

/** docs/benchmarks.md: its hand-written text around one block made from the bench's results.json. */
const BENCHMARKS_PAGE = fileURLToPath(new URL('../../docs/benchmarks.md', import.meta.url));
export const RESULTS_FILE = fileURLToPath(new URL('./results.json', import.meta.url));

const BEGIN = '<!-- results.json: written by npm run bench (or npm run docs:write); test/docs/generatedDocs.test.ts keeps it current -->';
const END = '<!-- end of results.json -->';

/** The parts of results.json the page shows. */
interface Results {
  date: string;
  benchSeconds: number;
  machine: { cpus: number; cpuModel: string };
  versions: { node: string; postgres: string; redis: string; bullmq: string };
  sizes: { big: number; fastPathRecords?: number; fastPathAlternations?: number };
  ratios: Record<string, number>;
  targets: { name: string; wanted: string; value: number; met: boolean }[];
  /** From `npm run bench -- --scale`, when it has run. */
  scale?: {
    fillerRows: number;
    syncedRecords: number;
    firstSyncEmptyRecordsPerS: number[];
    firstSyncBigRecordsPerS: number;
    resyncSmallRecordsPerS: number[];
    resyncBigRecordsPerS: number;
    bytesPerRecord: { heap: number; primaryKey: number; changeSeqIndex: number; toast: number };
  };
  /** From `npm run bench -- --analytics`, when it has run. */
  analytics?: {
    rows: number;
    queries: { name: string; viewMs: number; tableMs: number; ratio: number }[];
    bytesPerRecord: { records: number; typed: number; plainTable: number };
    storageVsRecords: number;
    firstSync: { withColumnsRecordsPerS: number[]; withoutColumnsRecordsPerS: number[]; ratios: number[] };
  };
  /** From `npm run bench -- --tracing`, when it has run. */
  tracing?: { records: number; tracedRecordsPerS: number[]; untracedRecordsPerS: number[]; ratios: number[]; spanBytes: number[] };
  figures: {
    e2eRecordsPerS: number;
    resyncRecordsPerS: number;
    smallRunsPerS: number;
    idleRssMB: number;
    /** Absent from results of benches before the worker hosts phase. */
    hostsRunsPerS1?: number;
    hostsRunsPerS2?: number;
    hostsRunsPerS4?: number;
    hostsScaling2?: number;
    hostsScaling4?: number;
    fastPathGains?: { path: string; firstSync: number; firstSyncRatios: string; resync: number; resyncRatios: string }[];
  };
}

const row = (cells: readonly (string | number)[]): string => `| ${cells.join(' | ')} |`;

/** The worker hosts phase's runs/s, where the results have it. */
function hostsLine(figures: Results['figures']): string[] {
  const { hostsRunsPerS1: one, hostsRunsPerS2: two, hostsRunsPerS4: four, hostsScaling2, hostsScaling4 } = figures;
  if (one === undefined || two === undefined || four === undefined) return [];
  return [`Worker hosts (network namespaces), a latency-bound tick: ${one} runs/s on one, ${two} on two (×${hostsScaling2}), ${four} on four (×${hostsScaling4}).`];
}

/** The scale mode's figures, where the results have them. */
function scaleLine(results: Results): string[] {
  const { scale } = results;
  if (!scale) return [];
  const rows = (scale.fillerRows + scale.syncedRecords).toLocaleString('en-US');
  const bytes = scale.bytesPerRecord;
  return [
    `At scale (\`--scale\`): a first sync of ${scale.syncedRecords.toLocaleString('en-US')} at ${scale.firstSyncBigRecordsPerS.toLocaleString('en-US')} records/s into a \`records\` holding ${rows} rows of another kind, against ${scale.firstSyncEmptyRecordsPerS.map((value) => value.toLocaleString('en-US')).join(' and ')} into an empty one; its unchanged re-sync at ${scale.resyncBigRecordsPerS.toLocaleString('en-US')} with the kind holding ${rows}, against ${scale.resyncSmallRecordsPerS.map((value) => value.toLocaleString('en-US')).join(' and ')} holding the ${scale.syncedRecords.toLocaleString('en-US')}. Bytes a record: heap ${bytes.heap}, primary key ${bytes.primaryKey}, change feed index ${bytes.changeSeqIndex}, TOAST ${bytes.toast}.`,
  ];
}

/** The tracing mode's figures, where the results have them. */
function tracingLine(results: Results): string[] {
  const { tracing } = results;
  if (!tracing) return [];
  const rates = (values: number[]) => values.map((value) => value.toLocaleString('en-US')).join(' / ');
  const kib = Math.round(Math.max(...tracing.spanBytes) / 1024).toLocaleString('en-US');
  return [
    `Tracing (\`--tracing\`): a first sync of ${tracing.records.toLocaleString('en-US')} with every span sampled and exported over OTLP ${rates(tracing.tracedRecordsPerS)} records/s (up to ${kib} KiB of spans a sync), without tracing ${rates(tracing.untracedRecordsPerS)}: ×${tracing.ratios.join(' / ×')}.`,
  ];
}

/** The analytics mode's figures, where the results have them. */
function analyticsLine(results: Results): string[] {
  const { analytics } = results;
  if (!analytics) return [];
  const queries = analytics.queries.map((query) => `${query.name} ${query.viewMs} ms against ${query.tableMs} (×${query.ratio})`).join(', ');
  const bytes = analytics.bytesPerRecord;
  const rates = (values: number[]) => values.map((value) => value.toLocaleString('en-US')).join(' / ');
  return [
    `Analytics (\`--analytics\`), ${analytics.rows.toLocaleString('en-US')} transactions, through the view against a plain typed table: ${queries}. Bytes a record: records ${bytes.records}, typed table ${bytes.typed} (×${analytics.storageVsRecords} together), the plain table ${bytes.plainTable}. A first sync with the kind's columns ${rates(analytics.firstSync.withColumnsRecordsPerS)} records/s, without ${rates(analytics.firstSync.withoutColumnsRecordsPerS)}.`,
  ];
}

/** The block of docs/benchmarks.md that results.json makes. */
export function resultsBlock(results: Results): string {
  const lines = [
    BEGIN,
    '',
    `Run ${results.date} (${results.benchSeconds} s) on ${results.machine.cpus} cores (${results.machine.cpuModel}); node ${results.versions.node}, PostgreSQL ${results.versions.postgres}, Redis ${results.versions.redis}, BullMQ ${results.versions.bullmq}.`,
    `End to end: ${results.figures.e2eRecordsPerS.toLocaleString('en-US')} records/s on a first sync of ${results.sizes.big.toLocaleString('en-US')}, ${results.figures.resyncRecordsPerS.toLocaleString('en-US')} on its unchanged re-sync; ${results.figures.smallRunsPerS} one-page runs/s; an idle worker ${results.figures.idleRssMB} MB.`,
    ...hostsLine(results.figures),
    ...scaleLine(results),
    ...analyticsLine(results),
    ...tracingLine(results),
    '',
    row(['target', 'wanted', 'value', 'met']),
    row(['---', '---', '---', '---']),
    ...results.targets.map((target) => row([target.name, target.wanted, target.value, target.met ? 'yes' : '**no**'])),
  ];
  const gains = results.figures.fastPathGains;
  if (gains) {
    lines.push(
      '',
      `Fast paths against their removal (${results.sizes.fastPathAlternations} alternations of ${results.sizes.fastPathRecords?.toLocaleString('en-US')} records; with over without, median and each):`,
      '',
      row(['fast path', 'first sync', 're-sync']),
      row(['---', '---', '---']),
      ...gains.map((gain) => row([`\`${gain.path}\``, `×${gain.firstSync} (${gain.firstSyncRatios})`, `×${gain.resync} (${gain.resyncRatios})`])),
    );
  }
  lines.push('', END);
  return lines.join('\n');
}

/** The page with its results block made anew from `results`. */
export function pageWithResults(page: string, results: Results): string {
  return replaceBlock(page, { begin: BEGIN, end: END, block: resultsBlock(results), name: 'docs/benchmarks.md' });
}

/** Writes docs/benchmarks.md's results block from results.json (npm run bench does, after a full run). */
export async function writeBenchmarksPage(): Promise<void> {
  const results = JSON.parse(await readFile(RESULTS_FILE, 'utf8')) as Results;
  await writeFile(BENCHMARKS_PAGE, pageWithResults(await readFile(BENCHMARKS_PAGE, 'utf8'), results));
}
