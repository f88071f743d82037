import type { RunReport } from '../storage/runs/recentRuns.js';
import { formatTable } from './printTable.js';

/** Seconds from milliseconds, as the tables show a duration; empty while unknown. */
export function seconds(durationMs: number | null): string {
  return durationMs === null ? '' : `${(durationMs / 1000).toFixed(1)} s`;
}

/** A run's error as a table shows it, cut short: its kind, then its message. */
export function runError(run: Pick<RunReport, 'error' | 'errorKind'>, length: number): string | undefined {
  return run.error === null ? undefined : `${run.errorKind ?? 'error'}: ${run.error}`.slice(0, length);
}

/** Runs as `status` and `demo --runs` list them, each with its fan-out value (empty for a query without forEach). */
export function formatRunTable(runs: readonly RunReport[]): string {
  return formatTable(
    ['started', 'job', 'query', 'value', 'status', 'attempt', 'pages', 'new', 'updated', 'unchanged', 'duration', 'notice', 'error'],
    runs.map((run) => [
      run.startedAt.toISOString(),
      run.job,
      run.queryIndex,
      run.value,
      run.status,
      run.attempt,
      run.pages,
      run.recordsNew,
      run.recordsUpdated,
      run.recordsUnchanged,
      seconds(run.durationMs),
      run.notice,
      runError(run, 80),
    ]),
  );
}
