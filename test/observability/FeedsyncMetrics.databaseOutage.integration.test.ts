import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import { enqueueRuns } from '../../src/jobs/enqueueRuns.js';
import { WorkerProcess } from '../../src/runtime/WorkerProcess.js';
import { startSimulator, type Simulator } from '../../src/simulator/startSimulator.js';
import { startCuttableProxy, type CuttableProxy } from '../support/cuttableProxy.js';
import { metricSample, metricSamples } from '../support/metricsText.js';
import { capturingLogger, simulatorSources } from '../support/syncFixture.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';
import { waitFor } from '../support/waitFor.js';

let simulator: Simulator;
let database: TestDatabase;
let proxy: CuttableProxy;
let feedsync: WorkerProcess;
/** /metrics as read while the worker's line to Postgres was cut, and once the run had ended. */
let during: { status: number; text: string };
let after: string;
/** Seconds from the cut to the run's end. */
let outageToEnd: number;
/** The worker's log lines. */
let logged: string[];

beforeAll(async () => {
  simulator = await startSimulator({ seed: 21, music: { artists: 1500, users: 2, playsPerUser: 10 }, chain: { initialHead: 100, blockIntervalMs: 0 }, faults: { music: { latencyMs: 30 } } });
  database = await createTestDatabase();
  const direct = new URL(database.url);
  proxy = await startCuttableProxy(direct.hostname, Number(direct.port));
  const throughProxy = new URL(database.url);
  throughProxy.hostname = '127.0.0.1';
  throughProxy.port = String(proxy.port);
  const config = parseConfig(
    {
      sources: simulatorSources(simulator),
      jobs: [{ name: 'artists', source: 'music', records: { path: 'results.artistmatches.artist', kind: 'artist' }, paging: { limit: 20 }, queries: [{ q: 'a', params: { method: 'artist.search' } }] }],
      worker: { prefix: `test-${randomBytes(4).toString('hex')}`, httpPort: 0, attempts: 1 },
    },
    'test',
    {},
  );
  const log = capturingLogger();
  logged = log.lines;
  feedsync = await WorkerProcess.open({ config, redis: inject('redisUrl'), databaseUrl: throughProxy.href, logger: log.logger, roles: { worker: true, scheduler: false }, http: true });
  await feedsync.start();
  const metrics = `${feedsync.httpUrl!}/metrics`;
  const {
    runs: [run],
  } = await enqueueRuns(config, feedsync.runtime.store, feedsync.queues, 'artists');
  const row = async () => (await database.pool.query<{ status: string; pages: number }>('select status, pages from sync_runs where id = $1', [run!.runId])).rows[0];
  await waitFor('a few pages stored', async () => ((await row())?.pages ?? 0) >= 2);
  proxy.cut();
  const cutAt = performance.now();
  during = await waitFor('a scrape that counts a wait for Postgres', async () => {
    const response = await fetch(metrics);
    const text = await response.text();
    return metricSample(text, 'feedsync_database_outage_wait_seconds_total') > 0 && { status: response.status, text };
  });
  proxy.restore();
  await waitFor('the run to end', async () => (await row())?.status === 'succeeded');
  outageToEnd = (performance.now() - cutAt) / 1000;
  after = await (await fetch(metrics)).text();
});
afterAll(async () => {
  await feedsync.close();
  await proxy.close();
  await simulator.close();
  await database.drop();
});

describe("a worker's metrics while its Postgres is out of reach", () => {
  it('still answers /metrics, the counters and Redis-read gauges in it and the gauges read from Postgres left out', () => {
    expect(during.status).toBe(200);
    expect(metricSample(during.text, 'feedsync_pages_total', { source: 'music' })).toBeGreaterThanOrEqual(2);
    expect(metricSamples(during.text, 'feedsync_queue_jobs', { queue: 'sync', state: 'active' })).toEqual([1]);
    expect(metricSamples(during.text, 'feedsync_job_last_tick_status')).toEqual([]);
    expect(metricSamples(during.text, 'feedsync_run_max_idle_seconds')).toEqual([]);
  });

  it('logs which gauges it left out, and why', () => {
    const warnings = logged.map((line) => JSON.parse(line) as { msg: string; gauges?: string }).filter((line) => line.msg.startsWith('metrics: a reading failed'));
    expect(warnings.map((line) => line.gauges)).toEqual(expect.arrayContaining(['feedsync_notices', 'feedsync_job_*', 'feedsync_run_max_idle_seconds']));
  });

  it('counts the time its run spent waiting the outage out, no more than passed from the cut to the run\'s end', () => {
    const waited = metricSample(after, 'feedsync_database_outage_wait_seconds_total');
    expect(waited).toBeGreaterThan(0);
    expect(waited).toBeLessThanOrEqual(outageToEnd);
  });
});
