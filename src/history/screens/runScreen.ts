import { between, formatBytes, formatCount, formatDuration, formatTime } from '../format.js';
import { html, type Markup } from '../html.js';
import { jobHref, pageMetaHref, runHref } from '../historyPaths.js';
import { badge, renderScreen, timeMarkup } from '../layout.js';
import type { RunPagesView } from '../RunHistory.js';
import type { NoticeAttemptRow } from '../statements/readNoticeAttempts.js';
import type { RunDetailRow } from '../statements/readRun.js';

export interface RunScreenData {
  run: RunDetailRow;
  pages: RunPagesView;
  page: number;
  attempts: readonly NoticeAttemptRow[];
}

/** One run: what it asked, how it went and why, its stored pages, and its notice's delivery attempts. */
export function runScreen(view: RunScreenData): string {
  const { run } = view;
  const query = run.query as { q?: string | null; params?: Record<string, string> } | null;
  const finished = run.status === 'succeeded' || run.status === 'partial' || run.status === 'failed';
  return renderScreen({
    title: `Run ${run.id}`,
    trail: [{ label: run.job, href: jobHref(run.job) }, { label: `run ${run.id.slice(0, 8)}` }],
    refresh: !finished,
    body: html`<h1>${run.job} · query ${run.query_index}${run.fan_value !== null ? html` · ${run.fan_value}` : ''} ${badge(run.status)}</h1>
${run.error ? html`<div class="${run.status === 'partial' ? 'error partial' : 'error'}" id="run-error">${run.status === 'partial' ? 'Partial, did not get everything: ' : ''}<strong>${run.error_kind ?? 'error'}</strong>: ${run.error}</div>` : ''}
${run.warnings.length > 0 ? html`<div class="warning" id="run-warnings">The upstream warned, and sent the data: <ul>${run.warnings.map((warning) => html`<li>${warning}</li>`)}</ul></div>` : ''}
<section><dl>
<dt>run</dt><dd><code>${run.id}</code> <span class="muted">${run.run_key}</span></dd>
<dt>source</dt><dd>${run.source}</dd>
<dt>query</dt><dd>${queryText(query)}</dd>
<dt>attempt</dt><dd>${run.attempt}${run.attempt > 1 ? ` (${run.attempt - 1} retr${run.attempt === 2 ? 'y' : 'ies'})` : ''}${run.crashes ? `, ${run.crashes} worker crash${run.crashes === 1 ? '' : 'es'}` : ''}</dd>
<dt>started</dt><dd>${formatTime(run.started_at)}${run.scheduled_for ? html` <span class="muted">scheduled for ${formatTime(run.scheduled_for)}</span>` : ''}</dd>
<dt>finished</dt><dd>${formatTime(run.finished_at)}${run.finished_at ? ` (took ${formatDuration(between(run.started_at, run.finished_at))})` : ''}</dd>
<dt>stopped because</dt><dd>${run.stop_reason ?? ''}</dd>
${run.trace_id ? html`<dt>trace</dt><dd><code id="run-trace">${run.trace_id}</code> <span class="muted">OpenTelemetry trace id of its latest attempt</span></dd>` : ''}
<dt>records</dt><dd>${formatCount(run.records_new)} new, ${formatCount(run.records_updated)} updated, ${formatCount(run.records_unchanged)} unchanged${run.records_skipped ? `, ${formatCount(run.records_skipped)} skipped into dead_letters` : ''}</dd>
</dl></section>
${pagesSection(view)}
${noticeSection(run, view.attempts)}`,
  });
}

/** The query as sent: its q and its parameters. */
function queryText(query: { q?: string | null; params?: Record<string, string> } | null): string {
  const parts = Object.entries(query?.params ?? {}).map(([key, value]) => `${key} = ${value}`);
  if (query?.q !== undefined && query.q !== null) parts.unshift(`q = ${query.q}`);
  return parts.join('; ');
}

function pagesSection({ run, pages, page }: RunScreenData): Markup {
  const { totals } = pages;
  const rows = pages.pages.map(
    (stored) => html`<tr>
<td class="n"><a href="${pageMetaHref(run.id, stored.page_seq)}">${stored.page_seq}</a></td>
<td>${stored.status}</td>
<td class="n">${formatBytes(stored.bytes)}</td>
<td class="n">${stored.latency_ms === null ? '' : `${stored.latency_ms} ms`}</td>
<td>${timeMarkup(stored.fetched_at)}</td>
<td class="wrap">${stored.request_url}</td>
</tr>`,
  );
  const more = pages.more ? html`<a rel="next" href="${runHref(run.id, page + 1)}">next pages →</a>` : '';
  const back = page > 1 ? html`<a rel="prev" href="${runHref(run.id, page - 1)}">← earlier pages</a> ` : '';
  return html`<section id="pages"><h2>Pages</h2>
<p>${formatCount(totals.pages)} stored, ${formatBytes(Number(totals.bytes ?? 0))}${totals.mean_latency_ms !== null ? `, latency ${totals.mean_latency_ms} ms on average, ${totals.max_latency_ms} ms at most` : ''}</p>
${rows.length > 0 ? html`<div class="scroll"><table><thead><tr><th class="n">page</th><th>status</th><th class="n">bytes</th><th class="n">latency</th><th>fetched</th><th>request</th></tr></thead><tbody>${rows}</tbody></table></div>` : ''}
<p class="pager">${back}${more}</p>
</section>`;
}

function noticeSection(run: RunDetailRow, attempts: readonly NoticeAttemptRow[]): Markup {
  if (run.notice_id === null) return html`<section id="notice"><h2>Notice</h2><p class="muted">No notice reports this run${run.tick_id ? ' or its tick yet' : ''}.</p></section>`;
  const rows = attempts.map(
    (attempt, index) => html`<tr>
<td class="n">${index + 1}</td>
<td>${timeMarkup(attempt.attempted_at)}</td>
<td>${attempt.http_status ?? ''}</td>
<td class="n">${attempt.latency_ms} ms</td>
<td class="wrap">${attempt.error ?? ''}</td>
</tr>`,
  );
  return html`<section id="notice"><h2>Notice</h2>
<dl>
<dt>notice</dt><dd><code>${run.notice_id}</code> ${run.notice_type} <span class="muted">${run.notice_for_tick ? 'for the run’s tick' : 'for this run'}</span></dd>
<dt>delivery</dt><dd>${badge(run.notice_state ?? 'pending')} after ${run.notice_attempts ?? 0} attempt${run.notice_attempts === 1 ? '' : 's'}${run.notice_delivered_at ? `, delivered ${formatTime(run.notice_delivered_at)}` : ''}</dd>
${run.notice_last_error ? html`<dt>last error</dt><dd>${run.notice_last_error}</dd>` : ''}
</dl>
${rows.length > 0 ? html`<div class="scroll"><table id="attempts"><thead><tr><th class="n">attempt</th><th>at</th><th>HTTP status</th><th class="n">latency</th><th>error</th></tr></thead><tbody>${rows}</tbody></table></div>` : html`<p class="muted">Not attempted yet.</p>`}
</section>`;
}
