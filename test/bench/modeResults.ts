import { readFile, writeFile } from 'node:fs/promises';
import { RESULTS_FILE } from './benchmarksPage.js';

/** A target as results.json lists them. */
export interface Target {
  name: string;
  wanted: string;
  value: number;
  met: boolean;
}

/** What a bench mode of its own (`--scale`, `--analytics`, `--tracing`) adds to results.json: a section, figures and targets. */
export interface ModeResults {
  section: 'scale' | 'analytics' | 'tracing';
  data: unknown;
  figures: Record<string, number>;
  targets: Target[];
}

interface Results {
  figures: Record<string, unknown>;
  targets: Target[];
  [section: string]: unknown;
}

const readResults = async (): Promise<Results | undefined> => JSON.parse(await readFile(RESULTS_FILE, 'utf8').catch(() => 'null')) as Results | undefined;

/** The target `wanted` (">= 0.9", "<= 1.5") of a value. */
export function targetOf(name: string, value: number, comparison: '>=' | '<=', bound: number): Target {
  return { name, wanted: `${comparison} ${bound}`, value, met: comparison === '>=' ? value >= bound : value <= bound };
}

/** Writes a mode's results into results.json, in place of its last ones; the full bench's stay. */
export async function mergeModeResults(mode: ModeResults): Promise<void> {
  const results = await readResults();
  if (!results) throw new Error(`${RESULTS_FILE} is missing: run the full bench first, then --${mode.section}`);
  const previous = results[mode.section] as { targetNames?: string[] } | undefined;
  const replaced = new Set([...(previous?.targetNames ?? []), ...mode.targets.map((target) => target.name)]);
  results[mode.section] = { ...(mode.data as object), targetNames: mode.targets.map((target) => target.name), figureNames: Object.keys(mode.figures) };
  Object.assign(results.figures, mode.figures);
  results.targets = [...results.targets.filter((target) => !replaced.has(target.name)), ...mode.targets];
  await writeFile(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
}

/** A full bench's report with the modes' last results (from the results.json it replaces), if any. */
export async function keptModeResults<Report extends { figures: Record<string, unknown>; targets: Target[] }>(report: Report): Promise<Report> {
  const previous = await readResults();
  if (!previous) return report;
  let kept: Report = report;
  for (const section of ['scale', 'analytics', 'tracing'] as const) {
    const data = previous[section] as { targetNames?: string[]; figureNames?: string[] } | undefined;
    if (!data) continue;
    const figures = Object.fromEntries((data.figureNames ?? []).map((name) => [name, previous.figures[name]]));
    kept = { ...kept, [section]: data, figures: { ...kept.figures, ...figures }, targets: [...kept.targets, ...previous.targets.filter((target) => data.targetNames?.includes(target.name))] };
  }
  return kept;
}
