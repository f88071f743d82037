import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportedMetricNames } from '../support/metricsText.js';
import { exportingWorkerMetrics, type ExportedMetrics } from './exportingWorker.js';
import { promqlMetricNames } from './promql.js';

interface Target {
  expr?: string;
  datasource?: { type?: string; uid?: string };
}
interface Panel {
  id: number;
  type: string;
  title: string;
  datasource?: { type?: string; uid?: string };
  targets?: Target[];
  panels?: Panel[];
}
interface Variable {
  name: string;
  type: string;
  query?: string | { query?: string };
  datasource?: { type?: string; uid?: string };
}
interface Dashboard {
  schemaVersion: number;
  panels: Panel[];
  templating: { list: Variable[] };
}

const dashboard = JSON.parse(await readFile('deploy/grafana/feedsync.json', 'utf8')) as Dashboard;
/** The Prometheus the dashboard reads, chosen in its `datasource` variable. */
const PROMETHEUS = { type: 'prometheus', uid: '${datasource}' };

/** Every panel, those inside rows included. */
const panels = (list: readonly Panel[]): Panel[] => list.flatMap((panel) => [panel, ...panels(panel.panels ?? [])]);
const drawn = panels(dashboard.panels).filter((panel) => panel.type !== 'row');

/** Every PromQL query in the dashboard: each panel's targets', and each query variable's. */
const queries: { where: string; expr: string }[] = [
  ...drawn.flatMap((panel) => (panel.targets ?? []).map((target, at) => ({ where: `panel "${panel.title}" target ${at}`, expr: target.expr ?? '' }))),
  ...dashboard.templating.list
    .filter((variable) => variable.type === 'query')
    .map((variable) => ({ where: `variable $${variable.name}`, expr: typeof variable.query === 'string' ? variable.query : (variable.query?.query ?? '') })),
];

let worker: ExportedMetrics;
beforeAll(async () => {
  worker = await exportingWorkerMetrics();
});
afterAll(async () => {
  await worker.close();
});

describe('the Grafana dashboard, deploy/grafana/feedsync.json', () => {
  it('names in its queries only metrics a running worker exports', () => {
    const exported = exportedMetricNames(worker.text);
    const unknown = queries.flatMap(({ where, expr }) => promqlMetricNames(expr).filter((name) => !exported.has(name)).map((name) => `${where}: ${name}`));
    expect(unknown).toEqual([]);
  });

  it('reads a feedsync metric in every query', () => {
    expect(queries.length).toBeGreaterThan(15);
    expect(queries.filter(({ expr }) => promqlMetricNames(expr).length === 0).map(({ where }) => where)).toEqual([]);
  });

  it('shows ticks and runs by outcome, records, pages, upstream latency and errors, queues, workers, notices and database waits', () => {
    const shown = new Set(queries.flatMap(({ expr }) => promqlMetricNames(expr)));
    const wanted = [
      'feedsync_ticks_total',
      'feedsync_job_last_tick_status',
      'feedsync_runs_total',
      'feedsync_records_total',
      'feedsync_pages_total',
      'feedsync_upstream_request_duration_seconds_bucket',
      'feedsync_upstream_requests_total',
      'feedsync_queue_jobs',
      'feedsync_queue_workers',
      'feedsync_notice_deliveries_total',
      'feedsync_notices',
      'feedsync_database_outage_wait_seconds_total',
    ];
    expect(wanted.filter((name) => !shown.has(name))).toEqual([]);
  });

  it('has every panel and query read the Prometheus of its datasource variable, in a Grafana 10 schema', () => {
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(38);
    expect(dashboard.templating.list.find((variable) => variable.name === 'datasource')).toMatchObject({ type: 'datasource', query: 'prometheus' });
    const elsewhere = [
      ...drawn.filter((panel) => JSON.stringify(panel.datasource) !== JSON.stringify(PROMETHEUS)).map((panel) => `panel "${panel.title}"`),
      ...drawn.flatMap((panel) => (panel.targets ?? []).filter((target) => JSON.stringify(target.datasource) !== JSON.stringify(PROMETHEUS)).map(() => `a target of "${panel.title}"`)),
      ...dashboard.templating.list.filter((variable) => variable.type === 'query' && JSON.stringify(variable.datasource) !== JSON.stringify(PROMETHEUS)).map((variable) => `variable $${variable.name}`),
    ];
    expect(elsewhere).toEqual([]);
  });

  it('gives each panel an id of its own', () => {
    const ids = panels(dashboard.panels).map((panel) => panel.id);
    expect(ids.filter((id, at) => ids.indexOf(id) !== at)).toEqual([]);
  });
});
