import type { JobSchedule } from '../../config/loading/readOnlySettings.js';
import { between, formatCount, formatDuration, formatTime } from '../format.js';
import { html } from '../html.js';
import { jobHref } from '../historyPaths.js';
import { badge, renderScreen, timeMarkup } from '../layout.js';
import type { JobLastTick } from '../RunHistory.js';
import { scheduleStanding } from '../jobSchedules.js';

/**
 * One row per configured job: its schedule, how its last tick went and when, its records, and
 * its next tick. A job whose last tick failed, or that missed a scheduled tick, is marked and
 * counted at the top.
 */
export function overviewScreen(jobs: readonly JobSchedule[], lastTicks: readonly JobLastTick[], now: Date): string {
  const byJob = new Map(lastTicks.map((last) => [last.job, last]));
  let attention = 0;
  const rows = jobs.map((job) => {
    const last = byJob.get(job.name);
    const tick = last?.tick;
    const standing = scheduleStanding(job, last?.lastScheduledFor, now);
    const failed = tick?.status === 'failed';
    if (failed || standing.missedAt) attention += 1;
    const outcome = tick
      ? html`${badge(tick.status)} <span class="muted">${tick.status === 'running' ? `${tick.runs.done} of ${tick.runs.total} runs done` : `${tick.runs.total} run${tick.runs.total === 1 ? '' : 's'}${tick.runs.partial ? `, ${tick.runs.partial} partial` : ''}${tick.runs.failed ? `, ${tick.runs.failed} failed` : ''}`}</span>`
      : html`<span class="muted">no tick yet</span>`;
    return html`<tr class="${failed || standing.missedAt ? 'attention' : ''}" data-job="${job.name}">
<td class="nowrap"><a href="${jobHref(job.name)}">${job.name}</a></td>
<td>${job.schedule ? html`<code>${job.schedule.cron}</code> <span class="muted">${job.schedule.timezone}</span>` : html`<span class="muted">manual</span>`}</td>
<td>${outcome}${standing.missedAt ? html` ${badge('late', `missed ${formatTime(standing.missedAt)}`)}` : ''}</td>
<td>${timeMarkup(tick?.startedAt)}</td>
<td class="n">${formatDuration(tick ? between(tick.startedAt, tick.finishedAt) : null)}</td>
<td class="n">${tick ? formatCount(tick.records.new) : ''}</td>
<td class="n">${tick ? formatCount(tick.records.updated) : ''}</td>
<td class="n">${tick ? formatCount(tick.records.unchanged) : ''}</td>
<td>${timeMarkup(standing.nextAt)}</td>
</tr>`;
  });
  const summary =
    attention > 0
      ? html`<p class="attention-summary"><strong>${attention} job${attention === 1 ? ' needs' : 's need'} attention</strong>: ${attention === 1 ? 'its' : 'their'} last tick failed or a scheduled tick did not run.</p>`
      : html`<p class="muted">Every job's last tick went through and none missed its schedule.</p>`;
  return renderScreen({
    title: 'Jobs',
    refresh: true,
    body: html`<h1>Jobs</h1>
${summary}
<section class="scroll"><table id="jobs">
<thead><tr><th>job</th><th>schedule</th><th>last tick</th><th>started</th><th class="n">took</th><th class="n">new</th><th class="n">updated</th><th class="n">unchanged</th><th>next tick</th></tr></thead>
<tbody>${rows}</tbody>
</table></section>
<p class="muted">As of ${formatTime(now)}; this page refreshes itself.</p>`,
  });
}
