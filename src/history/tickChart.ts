import type { TickState } from '../storage/ticks/tickState.js';
import { between, formatCount, formatDuration, formatTime } from './format.js';
import { html, type Markup } from './html.js';

const WIDTH = 720;
const HEIGHT = 220;
const PAD = { left: 56, right: 56, top: 14, bottom: 28 };
const MAX_BAR_WIDTH = 36;

/**
 * A job's ticks over time, oldest left: a bar per tick for the records it read (new, updated and
 * unchanged), and a point per tick for how long it took, coloured by how it went, so a failed or
 * partial tick stands out. Each point's title says the tick's time, outcome and figures.
 */
export function tickChart(ticks: readonly TickState[]): Markup {
  if (ticks.length === 0) return html`<p class="muted">No ticks yet.</p>`;
  const records = ticks.map((tick) => tick.records.new + tick.records.updated + tick.records.unchanged);
  const durations = ticks.map((tick) => between(tick.startedAt, tick.finishedAt) ?? 0);
  const maxRecords = Math.max(1, ...records);
  const maxDuration = Math.max(1, ...durations);
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotWidth / ticks.length;
  const x = (i: number) => PAD.left + slot * (i + 0.5);
  const y = (value: number, max: number) => PAD.top + plotHeight * (1 - value / max);
  const barWidth = Math.min(slot * 0.7, MAX_BAR_WIDTH);
  const bars = ticks.map((_, i) => {
    const top = y(records[i]!, maxRecords);
    return html`<rect class="bar" x="${(x(i) - barWidth / 2).toFixed(1)}" y="${top.toFixed(1)}" width="${barWidth.toFixed(1)}" height="${(PAD.top + plotHeight - top).toFixed(1)}"></rect>`;
  });
  const line = ticks.map((_, i) => `${x(i).toFixed(1)},${y(durations[i]!, maxDuration).toFixed(1)}`).join(' ');
  const points = ticks.map(
    (tick, i) =>
      html`<circle class="tick-point status-${tick.status}" data-tick="${tick.id}" data-status="${tick.status}" cx="${x(i).toFixed(1)}" cy="${y(durations[i]!, maxDuration).toFixed(1)}" r="5"><title>${formatTime(tick.startedAt)}: ${tick.status}, ${formatCount(records[i]!)} records, ${formatDuration(tick.finishedAt ? durations[i] : null) || 'running'}, ${tick.runs.partial} partial and ${tick.runs.failed} failed of ${tick.runs.total} runs</title></circle>`,
  );
  const bottom = PAD.top + plotHeight;
  return html`<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="Records and duration of the last ${ticks.length} ticks">
<line x1="${PAD.left}" y1="${bottom}" x2="${WIDTH - PAD.right}" y2="${bottom}" stroke="#d9dee5"></line>
${bars}
<polyline class="line" points="${line}"></polyline>
${points}
<text x="${PAD.left - 6}" y="${PAD.top + 10}" text-anchor="end">${formatCount(maxRecords)}</text>
<text x="${PAD.left - 6}" y="${bottom}" text-anchor="end">0</text>
<text x="${WIDTH - PAD.right + 6}" y="${PAD.top + 10}">${formatDuration(maxDuration)}</text>
<text x="${PAD.left}" y="${HEIGHT - 8}">${formatTime(ticks[0]!.startedAt)}</text>
<text x="${WIDTH - PAD.right}" y="${HEIGHT - 8}" text-anchor="end">${formatTime(ticks[ticks.length - 1]!.startedAt)}</text>
</svg>
<p class="muted">Bars: records per tick (left scale). Line and points: duration (right scale); a red point failed, an amber one was partial.</p>`;
}
