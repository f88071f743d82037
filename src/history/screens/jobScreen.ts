import { syncRuns } from '../../storage/tables/runTables.js';
import type { TickState } from '../../storage/ticks/tickState.js';
import { between, formatCount, formatDuration } from '../format.js';
import { html } from '../html.js';
import { jobHref } from '../historyPaths.js';
import { badge, renderScreen, statusRowClass, timeMarkup } from '../layout.js';
import type { RowsPage } from '../RunHistory.js';
import type { RunListRow } from '../statements/runListColumns.js';
import { tickChart } from '../tickChart.js';
import { pager, runTable, skippedNote } from './runRows.js';

/** The statuses a job's runs can be filtered by: every status a run can have. */
export const RUN_STATUSES = syncRuns.status.enumValues;

export interface JobScreenData {
  job: string;
  /** The latest ticks, oldest first. */
  ticks: readonly TickState[];
  runs: RowsPage<RunListRow>;
  status: string | undefined;
  page: number;
}

/** Ticks listed under the chart, newest first. */
const LISTED_TICKS = 20;

/** A job's ticks over time as a chart and a table, and its runs, filtered by status and paged. */
export function jobScreen(view: JobScreenData): string {
  const { job, ticks, runs, status, page } = view;
  const tickRows = [...ticks]
    .reverse()
    .slice(0, LISTED_TICKS)
    .map(
      (tick) => html`<tr class="${statusRowClass(tick.status)}" data-tick="${tick.id}">
<td>${timeMarkup(tick.startedAt)}</td>
<td>${tick.trigger}</td>
<td>${badge(tick.status)}${skippedNote(tick.records.skipped)}</td>
<td class="n">${tick.runs.done} of ${tick.runs.total}</td>
<td class="n">${tick.runs.succeeded}</td>
<td class="n">${tick.runs.partial}</td>
<td class="n">${tick.runs.failed}</td>
<td class="n">${tick.runs.skipped}</td>
<td class="n">${formatCount(tick.records.new)}</td>
<td class="n">${formatCount(tick.records.updated)}</td>
<td class="n">${formatCount(tick.records.unchanged)}</td>
<td class="n">${formatDuration(between(tick.startedAt, tick.finishedAt))}</td>
<td class="wrap">${tick.error ?? ''}</td>
</tr>`,
    );
  const filters = [undefined, ...RUN_STATUSES].map(
    (option) => html`<a class="${option === status ? 'current' : ''}" href="${jobHref(job, { status: option })}">${option ?? 'all'}</a>`,
  );
  return renderScreen({
    title: job,
    trail: [{ label: job }],
    refresh: true,
    body: html`<h1>${job}</h1>
<section><h2>Ticks</h2>${tickChart(ticks)}</section>
<section class="scroll"><table id="ticks">
<thead><tr><th>started</th><th>trigger</th><th>status</th><th class="n">runs done</th><th class="n">succeeded</th><th class="n">partial</th><th class="n">failed</th><th class="n">skipped</th><th class="n">new</th><th class="n">updated</th><th class="n">unchanged</th><th class="n">took</th><th>error</th></tr></thead>
<tbody>${tickRows}</tbody>
</table></section>
<section id="runs"><h2>Runs${status ? html` <span class="muted">(${status})</span>` : ''}</h2>
<p class="filters">Status: ${filters}</p>
${runTable(runs.rows)}
${pager(page, runs.more, (to) => jobHref(job, { status, page: to }))}
</section>`,
  });
}
