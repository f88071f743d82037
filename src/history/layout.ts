import { formatTime } from './format.js';
import { html, markup, type Markup } from './html.js';

/** Seconds between refreshes of a screen that shows work in progress. */
export const REFRESH_S = 15;

const STYLE = markup(`
:root { color-scheme: light; --fg: #1d232b; --muted: #5b6573; --line: #d9dee5; --bg: #f6f7f9; --ok: #1f7a3a; --warn: #9a6200; --bad: #b3261e; --run: #1f5fae; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
header { background: #1d232b; color: #fff; padding: 10px 16px; display: flex; gap: 16px; align-items: baseline; flex-wrap: wrap; }
header a { color: #fff; text-decoration: none; font-weight: 600; }
header nav { color: #c9d1db; font-size: 14px; }
header nav a { color: #c9d1db; font-weight: 400; }
main { padding: 16px; max-width: 1440px; margin: 0 auto; }
h1 { font-size: 22px; margin: 4px 0 12px; word-break: break-word; }
h2 { font-size: 17px; margin: 24px 0 8px; }
section > h2:first-child { margin-top: 0; }
section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 12px; margin-bottom: 16px; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-size: 14px; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th, td.n, .badge, .nowrap { white-space: nowrap; }
td.wrap { word-break: break-word; min-width: 12em; }
th { color: var(--muted); font-weight: 600; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
tr.attention { background: #fdecea; }
tr.attention td:first-child { border-left: 4px solid var(--bad); }
tr.partial { background: #fff4e0; }
tr.partial td:first-child { border-left: 4px solid var(--warn); }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; font-weight: 600; color: #fff; background: var(--muted); }
.status-succeeded, .status-delivered { background: var(--ok); }
.status-partial, .status-retrying, .status-interrupted, .status-pending, .status-late { background: var(--warn); }
.status-failed, .status-exhausted { background: var(--bad); }
.status-running, .status-queued { background: var(--run); }
.muted { color: var(--muted); }
.error { white-space: pre-wrap; word-break: break-word; background: #fdecea; border-left: 4px solid var(--bad); padding: 8px; margin: 8px 0; font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }
.error.partial { background: #fff4e0; border-left-color: var(--warn); }
.warning { background: #fff4e0; border-left: 4px solid var(--warn); padding: 8px; margin: 8px 0; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0; }
dt { color: var(--muted); }
dd { margin: 0; word-break: break-word; }
.filters a, .pager a { margin-right: 10px; }
.filters a.current { font-weight: 700; text-decoration: none; color: var(--fg); }
svg.chart { width: 100%; height: auto; max-height: 260px; }
svg.chart .bar { fill: #b9cbe4; }
svg.chart .line { fill: none; stroke: var(--fg); stroke-width: 1.5; }
svg.chart .tick-point { fill: var(--ok); stroke: #fff; stroke-width: 1; }
svg.chart .tick-point.status-failed { fill: var(--bad); }
svg.chart .tick-point.status-partial { fill: var(--warn); }
svg.chart .tick-point.status-running { fill: var(--run); }
svg.chart text { font-size: 11px; fill: var(--muted); }
@media (max-width: 640px) { main { padding: 8px; } section { padding: 8px; } h1 { font-size: 19px; } }
`);

export interface ScreenShell {
  title: string;
  /** Breadcrumbs after the overview, each a label and an optional link. */
  trail?: { label: string; href?: string }[];
  /** Refresh the screen itself every REFRESH_S seconds. */
  refresh?: boolean;
  body: Markup;
}

/** A whole HTML document: styles inline, no script, nothing loaded from elsewhere. */
export function renderScreen(page: ScreenShell): string {
  const trail = (page.trail ?? []).map((crumb) => html` / ${crumb.href ? html`<a href="${crumb.href}">${crumb.label}</a>` : crumb.label}`);
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${page.refresh ? html`<meta http-equiv="refresh" content="${REFRESH_S}">` : ''}
<title>${page.title} · feedsync</title>
<style>${STYLE}</style>
</head>
<body>
<header><a href="/runs">feedsync runs</a><nav><a href="/runs">jobs</a>${trail}</nav></header>
<main>
${page.body}
</main>
</body>
</html>
`.text;
}

/** The class of a table row of a run or tick in this status: failed ones need attention, partial ones a look. */
export function statusRowClass(status: string): string {
  return status === 'failed' ? 'attention' : status === 'partial' ? 'partial' : '';
}

/** A time that may break between its date and its time of day, so that a table fits a window. */
export function timeMarkup(date: Date | null | undefined): Markup {
  const [day, time] = formatTime(date).split(/ (?=\d\d:)/);
  return time === undefined ? html`${day ?? ''}` : html`<span class="nowrap">${day}</span> <span class="nowrap">${time}</span>`;
}

/** A status as a coloured badge. */
export function badge(status: string, label: string = status): Markup {
  return html`<span class="badge status-${status}">${label}</span>`;
}
