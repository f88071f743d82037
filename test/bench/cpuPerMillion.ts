import type { MeasuredRuns } from './measureRuns.js';
import type { Target } from './report.js';

/** CPU seconds one run cost per 1,000,000 records: the worker's, Postgres's, and both. */
export interface CpuOfRun {
  worker: number;
  postgres: number;
  total: number;
}

export interface CpuPerMillion {
  first: CpuOfRun;
  resync: CpuOfRun;
}

/** Wanted at most for the first sync, worker and Postgres together: what a million records cost the machine. */
const WANTED_TOTAL = 25;

const perMillion = (seconds: number, records: number): number => Number(((seconds * 1_000_000) / records).toFixed(2));

function cpuOfRun(run: MeasuredRuns): CpuOfRun {
  const worker = perMillion(run.cpu.worker, run.records);
  const postgres = perMillion(run.cpu.postgres, run.records);
  return { worker, postgres, total: Number((worker + postgres).toFixed(2)) };
}

/** From a first run and its re-sync (the median pair's), each scaled to a million records. */
export function cpuPerMillion(first: MeasuredRuns, resync: MeasuredRuns): CpuPerMillion {
  return { first: cpuOfRun(first), resync: cpuOfRun(resync) };
}

export function cpuPerMillionTarget(cpu: CpuPerMillion): Target {
  return { name: 'CPU s per 1M records, first sync (worker + postgres)', wanted: `<= ${WANTED_TOTAL}`, value: cpu.first.total, met: cpu.first.total <= WANTED_TOTAL };
}

/** The report's row: #, measurement, size, result, note. */
export function cpuPerMillionRow(cpu: CpuPerMillion): string[] {
  const of = (run: CpuOfRun): string => `${run.total} (worker ${run.worker} + postgres ${run.postgres})`;
  return ['3', 'CPU s per 1M records, worker + postgres', 'median pair', `first sync ${of(cpu.first)}`, `re-sync ${of(cpu.resync)}`];
}
