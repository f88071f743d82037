import type { RunReport } from '../storage/runs/recentRuns.js';
import type { TickState } from '../storage/ticks/tickState.js';
import { formatTable } from './printTable.js';
import { runError, seconds } from './runTable.js';
import { printableLine, terminalJson } from './terminalText.js';

/** A tick of the demo with the pages its runs read, which job_ticks does not keep. */
export interface DemoTick {
  tick: TickState;
  pages: number;
}

/** Failed and partial runs listed at the most; `demo --runs` and `feedsync status` show them all. */
const LISTED_FAILURES = 20;

/** One line per job tick: its runs by outcome, their pages and records, and how long it took. */
export function tickTable(ticks: readonly DemoTick[]): string {
  return formatTable(
    ['job', 'status', 'runs', 'succeeded', 'partial', 'failed', 'skipped', 'pages', 'new', 'updated', 'unchanged', 'took'],
    ticks.map(({ tick, pages }) => [
      tick.job,
      tick.status,
      tick.runs.total,
      tick.runs.succeeded,
      tick.runs.partial,
      tick.runs.failed,
      tick.runs.skipped,
      pages,
      tick.records.new,
      tick.records.updated,
      tick.records.unchanged,
      seconds(tick.finishedAt === null ? null : tick.finishedAt.getTime() - tick.startedAt.getTime()),
    ]),
  );
}

/** The runs that failed or ended partial, each with its job, run id, query, value and error; a line saying so when there are none. */
export function failureLines(runs: readonly RunReport[]): string[] {
  const failed = runs.filter((run) => run.status === 'failed' || run.status === 'partial');
  if (failed.length === 0) return ['no run failed or ended partial'];
  const lines = failed.slice(0, LISTED_FAILURES).map((run) => {
    const value = run.value === null ? '' : `, value ${run.value}`;
    return printableLine(`  ${run.job} run ${run.runId} (query ${run.queryIndex}${value}): ${run.status}, ${runError(run, 200) ?? 'no error recorded'}`);
  });
  const more = failed.length - lines.length;
  return [`${failed.length} runs failed or ended partial:`, ...lines, ...(more > 0 ? [`  … and ${more} more (\`feedsync demo --runs\` lists every run)`] : [])];
}

/** Stored records by source and kind, each kind beside its typed view (columns, rows) when the config declares one. */
export function storedTable(records: readonly { source: string; kind: string; n: string }[], views: ReadonlyMap<string, { view: string; columns: number; rows: string }>): string {
  const stored = new Set(records.map((row) => row.kind));
  const rows = [...records, ...[...views.keys()].filter((kind) => !stored.has(kind)).map((kind) => ({ source: '', kind, n: '0' }))];
  return formatTable(
    ['source', 'kind', 'records', 'view', 'columns', 'rows'],
    rows.map((row) => {
      const view = views.get(row.kind);
      return [row.source, row.kind, row.n, view?.view, view?.columns, view?.rows];
    }),
  );
}

/**
 * JSON laid out for a screen: a mapping or list of plain values on one line, others one entry a
 * line. Every value is written as terminalJson writes it, so that no terminal acts on its text.
 */
export function compactJson(value: unknown, indent = ''): string {
  if (value === null || typeof value !== 'object') return terminalJson(value);
  const entries: [string | undefined, unknown][] = Array.isArray(value) ? value.map((item) => [undefined, item]) : Object.entries(value);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  const entry = ([key, item]: [string | undefined, unknown], inner: string) => `${key === undefined ? '' : `${terminalJson(key)}: `}${compactJson(item, inner)}`;
  if (entries.every(([, item]) => item === null || typeof item !== 'object')) return `${open}${entries.map((item) => entry(item, indent)).join(', ')}${close}`;
  const inner = `${indent}  `;
  return `${open}\n${entries.map((item) => `${inner}${entry(item, inner)}`).join(',\n')}\n${indent}${close}`;
}
