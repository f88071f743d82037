import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import { enqueueRuns, waitForRuns } from '../../src/jobs/enqueueRuns.js';
import { openRedis } from '../../src/redis/openRedis.js';
import { WorkerProcess } from '../../src/runtime/WorkerProcess.js';
import { DASHBOARD_CSP } from '../../src/runtime/securityHeaders.js';
import { startPostgresServer, type PostgresServer } from '../../src/localstack/postgresServer.js';
import { startSimulator, type Simulator } from '../../src/simulator/startSimulator.js';
import { launchChromium } from '../support/chromium.js';
import { metricSample as sample } from '../support/metricsText.js';
import { capturingLogger, simulatorSources } from '../support/syncFixture.js';

let simulator: Simulator;
let postgres: PostgresServer;
let feedsync: WorkerProcess;
let base: string;
const auth = { user: 'ops', password: 'dash-secret' };

beforeAll(async () => {
  simulator = await startSimulator({ seed: 9, music: { artists: 400, users: 5, playsPerUser: 50 }, chain: { initialHead: 500, blockIntervalMs: 0 } });
  postgres = await startPostgresServer();
  const config = parseConfig(
    {
      sources: simulatorSources(simulator),
      jobs: [
        { name: 'artists', source: 'music', records: { path: 'results.artistmatches.artist', kind: 'artist' }, paging: { limit: 25 }, queries: [{ q: 'a', params: { method: 'artist.search' } }] },
        // One page of many: its run ends partial.
        { name: 'capped', source: 'music', records: { path: 'results.artistmatches.artist', kind: 'artist' }, paging: { limit: 25, maxPages: 1 }, queries: [{ q: 'b', params: { method: 'artist.search' } }] },
      ],
      webhook: { baseUrl: simulator.webhookBaseUrl, uuid: simulator.webhookUuid },
      worker: { prefix: `test-${randomBytes(4).toString('hex')}`, httpPort: 0, dashboard: true },
    },
    'test',
    {},
  );
  feedsync = await WorkerProcess.open({ config, redis: inject('redisUrl'), databaseUrl: postgres.url, logger: capturingLogger().logger, roles: { worker: true, scheduler: false }, http: true, dashboardAuth: auth });
  await feedsync.start();
  base = feedsync.httpUrl!;
  const runs = [...(await enqueueRuns(config, feedsync.runtime.store, feedsync.queues, 'artists')).runs, ...(await enqueueRuns(config, feedsync.runtime.store, feedsync.queues, 'capped')).runs];
  const connection = openRedis(inject('redisUrl'), 'worker');
  await waitForRuns(connection, feedsync.queues, feedsync.runtime.store.claims, runs, 20_000).finally(() => connection.disconnect());
}, 60_000);
afterAll(async () => {
  await feedsync.close();
  await simulator.close();
  await postgres.stop();
});

describe('the worker HTTP port', () => {
  it('reports the records counter equal to the rows stored, and pages equal to envelopes', async () => {
    const text = await (await fetch(`${base}/metrics`)).text();
    const stored = feedsync.runtime.storage.pool;
    const records = Number((await stored.query<{ n: string }>(`select count(*) as n from records where kind = 'artist'`)).rows[0]!.n);
    const pages = Number((await stored.query<{ n: string }>('select count(*) as n from envelopes')).rows[0]!.n);
    expect(records).toBeGreaterThan(25);
    expect(sample(text, 'feedsync_records_total', { source: 'music', kind: 'artist', outcome: 'new' })).toBe(records);
    expect(sample(text, 'feedsync_pages_total', { source: 'music' })).toBe(pages);
    // Each page's request, and perhaps the one run's guessed request past its last page (see PagesAhead).
    expect(sample(text, 'feedsync_upstream_requests_total', { source: 'music', status: '200' })).toBeGreaterThanOrEqual(pages);
    expect(sample(text, 'feedsync_upstream_requests_total', { source: 'music', status: '200' })).toBeLessThanOrEqual(pages + 1);
    expect(sample(text, 'feedsync_runs_total', { job: 'artists', status: 'succeeded' })).toBe(1);
    expect(sample(text, 'feedsync_queue_jobs', { queue: 'sync', state: 'completed' })).toBe(2);
    expect(text).toMatch(/^feedsync_process_resident_memory_bytes \d+/m);
  });

  it('counts a run that did not get everything under status partial, not succeeded', async () => {
    const text = await (await fetch(`${base}/metrics`)).text();
    expect(sample(text, 'feedsync_runs_total', { job: 'capped', status: 'partial' })).toBe(1);
    expect(sample(text, 'feedsync_runs_total', { job: 'capped', status: 'succeeded' })).toBe(0);
  });

  it('answers /healthz while the process runs', async () => {
    const response = await fetch(`${base}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok', pid: process.pid });
  });

  it('refuses the dashboard without its credentials and serves it with them', async () => {
    expect((await fetch(`${base}/admin/queues`)).status).toBe(401);
    const wrong = Buffer.from('ops:nope').toString('base64');
    expect((await fetch(`${base}/admin/queues`, { headers: { authorization: `Basic ${wrong}` } })).status).toBe(401);
    const right = Buffer.from(`${auth.user}:${auth.password}`).toString('base64');
    const page = await fetch(`${base}/admin/queues/api/queues`, { headers: { authorization: `Basic ${right}` } });
    expect(page.status).toBe(200);
    const { queues } = (await page.json()) as { queues: { name: string }[] };
    expect(queues.map((q) => q.name).sort()).toEqual(['notify', 'sync']);
  });

  it('answers every dashboard request, refused or not, with its content policy, nosniff and no framing, and never names express', async () => {
    const right = { authorization: `Basic ${Buffer.from(`${auth.user}:${auth.password}`).toString('base64')}` };
    const page = await (await fetch(`${base}/admin/queues`, { headers: right })).text();
    const script = /<script defer src="([^"]+)"/.exec(page)![1]!;
    const answers = await Promise.all([
      fetch(`${base}/admin/queues`),
      fetch(`${base}/admin/queues`, { headers: right }),
      fetch(`${base}/admin/queues/${script}`, { headers: right }),
      fetch(`${base}/admin/queues/api/queues`, { headers: right }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([401, 200, 200, 200]);
    for (const answer of answers) {
      expect(answer.headers.get('content-security-policy'), answer.url).toBe(DASHBOARD_CSP);
      expect(answer.headers.get('x-content-type-options'), answer.url).toBe('nosniff');
      expect(answer.headers.get('x-frame-options'), answer.url).toBe('DENY');
      expect(answer.headers.get('x-powered-by'), answer.url).toBeNull();
    }
    expect(DASHBOARD_CSP).toContain("frame-ancestors 'none'");
  });

  it("shows bull-board's queues in Chromium under its content policy, which refuses only the web font it asks Google for", async () => {
    const browser = await launchChromium();
    try {
      const context = await browser.newContext({ httpCredentials: { username: auth.user, password: auth.password } });
      const page = await context.newPage();
      const violations: string[] = [];
      await page.exposeFunction('reportViolation', (violation: string) => violations.push(violation));
      // As text: this test's types know no DOM.
      await page.addInitScript({ content: "document.addEventListener('securitypolicyviolation', (event) => reportViolation(event.violatedDirective + ' ' + event.blockedURI));" });
      await page.goto(`${base}/admin/queues`);
      await page.getByText('notify', { exact: true }).first().waitFor();
      await page.getByText('sync', { exact: true }).first().click();
      await page.waitForURL(/\/admin\/queues\/queue\/sync/);
      await page.getByText('completed', { exact: false }).first().waitFor();
      expect(violations.filter((violation) => !violation.includes('https://fonts.googleapis.com/'))).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);

  it('is ready with Redis, Postgres and migrations, and not ready once Postgres stops', async () => {
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { redis: { ok: true }, postgres: { ok: true }, migrations: { ok: true } } });
    await postgres.stop();
    const down = await fetch(`${base}/readyz`);
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ status: 'unavailable', checks: { redis: { ok: true }, postgres: { ok: false } } });
  });
});
