import { between, formatCount, formatDuration } from '../format.js';
import { html, type Markup } from '../html.js';
import { runHref } from '../historyPaths.js';
import { badge, statusRowClass, timeMarkup } from '../layout.js';
import type { RunListRow } from '../statements/runListColumns.js';

/** A table of runs, each linked to its screen, its error shown as text. */
export function runTable(runs: readonly RunListRow[]): Markup {
  if (runs.length === 0) return html`<p class="muted">No runs here.</p>`;
  const rows = runs.map(
    (run) => html`<tr class="${statusRowClass(run.status)}" data-run="${run.id}">
<td><a href="${runHref(run.id)}">${timeMarkup(run.started_at)}</a></td>
<td>${badge(run.status)}${skippedNote(run.records_skipped)}</td>
<td class="n">${run.query_index}</td>
<td>${run.fan_value ?? ''}</td>
<td class="n">${run.attempt}${run.crashes ? html` <span class="muted">(${run.crashes} crash${run.crashes === 1 ? '' : 'es'})</span>` : ''}</td>
<td class="n">${formatCount(run.pages)}</td>
<td class="n">${formatCount(run.records_new)}</td>
<td class="n">${formatCount(run.records_updated)}</td>
<td class="n">${formatCount(run.records_unchanged)}</td>
<td class="n">${formatDuration(between(run.started_at, run.finished_at))}</td>
<td class="wrap">${run.error ? html`<span class="muted">${run.error_kind}</span> ${run.error}` : ''}</td>
</tr>`,
  );
  return html`<div class="scroll"><table class="runs">
<thead><tr><th>started</th><th>status</th><th class="n">query</th><th>value</th><th class="n">attempt</th><th class="n">pages</th><th class="n">new</th><th class="n">updated</th><th class="n">unchanged</th><th class="n">took</th><th>error</th></tr></thead>
<tbody>${rows}</tbody>
</table></div>`;
}

/** Records a run or tick kept in dead_letters rather than stored (records.onInvalid: skip), beside its status. */
export function skippedNote(skipped: number): Markup {
  return skipped > 0 ? html` <span class="muted skipped">${formatCount(skipped)} record${skipped === 1 ? '' : 's'} skipped</span>` : html``;
}

/** Links to the previous and next page of a list. */
export function pager(page: number, more: boolean, hrefOf: (page: number) => string): Markup {
  if (page === 1 && !more) return html``;
  return html`<p class="pager">${page > 1 ? html`<a rel="prev" href="${hrefOf(page - 1)}">← newer</a>` : ''}<span class="muted">page ${page}</span> ${more ? html`<a rel="next" href="${hrefOf(page + 1)}">older →</a>` : ''}</p>`;
}
