import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import type { Config } from '../../src/config/schema.js';
import { enqueueRuns, waitForRuns } from '../../src/jobs/enqueueRuns.js';
import { openRedis } from '../../src/redis/openRedis.js';
import { WorkerProcess } from '../../src/runtime/WorkerProcess.js';
import { startSimulator, type Simulator } from '../../src/simulator/startSimulator.js';
import { launchChromium } from '../support/chromium.js';
import { capturingLogger, simulatorSources } from '../support/syncFixture.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';
import { waitFor } from '../support/waitFor.js';
import type { LocalApi } from '../support/localApi.js';
import { HOSTILE_MESSAGE, startMarkupUpstream } from '../support/markupUpstream.js';

/** Where the screenshots are kept after the run, for a person to look at. */
const ARTIFACTS = join(import.meta.dirname, '../../artifacts/history-page');
const auth = { user: 'ops', password: 'history-secret' };

let simulator: Simulator;
let upstream: LocalApi;
let database: TestDatabase;
let feedsync: WorkerProcess;
let browser: Browser;
let context: BrowserContext;
let base: string;

function configOf(upstreamUrl: string): Config {
  const thing = { path: 'items', key: 'id', kind: 'history_thing' };
  return parseConfig(
    {
      sources: {
        music: simulatorSources(simulator).music,
        flaky: { baseUrl: upstreamUrl, apiKey: 'flaky-key-0123456789', path: '/2.0/', timeoutMs: 2000, retry: { attempts: 1 } },
      },
      jobs: [
        { name: 'artists', source: 'music', schedule: { cron: '0 3 * * *' }, records: { path: 'results.artistmatches.artist', kind: 'artist' }, paging: { limit: 50 }, queries: [{ q: 'a', params: { method: 'artist.search' } }] },
        // One page of many: its run ends partial.
        { name: 'capped', source: 'music', records: { path: 'results.artistmatches.artist', kind: 'artist' }, paging: { limit: 50, maxPages: 1 }, queries: [{ q: 'a', params: { method: 'artist.search' } }] },
        { name: 'mixed', source: 'flaky', records: thing, queries: [{ q: 'ok' }, { q: 'bad' }] },
        { name: 'broken', source: 'flaky', records: thing, queries: [{ q: 'bad' }] },
        { name: 'dirty', source: 'flaky', records: { ...thing, onInvalid: 'skip' }, queries: [{ q: 'dirty' }] },
        { name: 'nightly', source: 'flaky', schedule: { cron: '0 2 * * *' }, records: thing, queries: [{ q: 'ok' }] },
      ],
      webhook: { baseUrl: simulator.webhookBaseUrl, uuid: simulator.webhookUuid },
      worker: { prefix: `test-${randomBytes(4).toString('hex')}`, httpPort: 0, dashboard: true, attempts: 1 },
    },
    'test',
    {},
  );
}

/** Runs a job's tick to its end and its notice to the receiver. */
async function tickOf(config: Config, job: string): Promise<void> {
  const { tick, runs } = await enqueueRuns(config, feedsync.runtime.store, feedsync.queues, job);
  const connection = openRedis(inject('redisUrl'), 'worker');
  await waitForRuns(connection, feedsync.queues, feedsync.runtime.store.claims, runs, 30_000).finally(() => connection.disconnect());
  await waitFor(`the notice of ${job}'s tick`, async () => {
    const { rows } = await database.pool.query<{ state: string }>('select state from notices where tick_id = $1', [tick.id]);
    return rows[0]?.state === 'delivered';
  });
}

beforeAll(async () => {
  simulator = await startSimulator({ seed: 21, music: { artists: 300, users: 3, playsPerUser: 10 }, chain: { initialHead: 100, blockIntervalMs: 0 } });
  database = await createTestDatabase();
  upstream = await startMarkupUpstream();
  const config = configOf(upstream.baseUrl);
  feedsync = await WorkerProcess.open({ config, redis: inject('redisUrl'), databaseUrl: database.url, logger: capturingLogger().logger, roles: { worker: true, scheduler: false }, http: true, dashboardAuth: auth });
  await feedsync.start();
  base = feedsync.httpUrl!;
  for (const job of ['artists', 'artists', 'capped', 'mixed', 'broken', 'dirty']) await tickOf(config, job);
  // The nightly job's last scheduled tick, three nights ago: its scheduler has not run since.
  await database.pool.query(
    `insert into job_ticks (tick_key, job, trigger, scheduled_for, status, runs_total, started_at, finished_at)
      values ('tick/nightly/old', 'nightly', 'schedule', date_trunc('day', now()) - interval '3 days' + interval '2 hours', 'succeeded', 0, now() - interval '3 days', now() - interval '3 days')`,
  );
  browser = await launchChromium();
  context = await browser.newContext({ httpCredentials: { username: auth.user, password: auth.password }, viewport: { width: 1280, height: 900 } });
  await mkdir(ARTIFACTS, { recursive: true });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await feedsync?.close();
  await upstream?.close();
  await simulator?.close();
  await database?.drop();
});

/**
 * The cells of the page's tables that reach past the box their table scrolls in, or past the
 * window: a column a reader cannot see without scrolling sideways. Each as `table: header`.
 */
async function cutCells(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const cut = [];
    for (const table of document.querySelectorAll('main table')) {
      const box = (table.closest('.scroll') ?? table.parentElement).getBoundingClientRect();
      const right = Math.min(box.right, window.innerWidth);
      const headers = [...table.querySelectorAll('thead th')].map((th) => th.textContent);
      for (const row of table.rows) {
        [...row.cells].forEach((cell, column) => {
          if (cell.getBoundingClientRect().right > right + 0.5) cut.push((table.id || table.className) + ': ' + headers[column]);
        });
      }
    }
    return [...new Set(cut)];
  })()`);
}

async function open(path: string): Promise<Page> {
  const page = await context.newPage();
  const response = await page.goto(`${base}${path}`);
  expect(response?.status()).toBe(200);
  return page;
}

describe('the run history page, in Chromium', () => {
  it('answers 401 without the dashboard credentials', async () => {
    const anonymous = await browser.newContext();
    try {
      // A navigation without credentials ends in Chromium's own error; the browser's request API shows the answer.
      const answer = await anonymous.request.get(`${base}/runs`);
      expect(answer.status()).toBe(401);
      expect(answer.headers()['www-authenticate']).toBe('Basic realm="feedsync"');
      expect(await answer.text()).not.toContain('artists');
    } finally {
      await anonymous.close();
    }
  });

  it('shows every job with its last tick, the failed one and the one that missed its schedule standing out', async () => {
    const page = await open('/runs');
    await page.screenshot({ path: join(ARTIFACTS, 'overview.png'), fullPage: true });
    const row = (job: string) => page.locator(`#jobs tr[data-job="${job}"]`);
    await expect.poll(() => row('broken').getAttribute('class')).toBe('attention');
    expect(await row('artists').getAttribute('class')).toBe('');
    expect(await row('mixed').getAttribute('class')).toBe('');
    expect(await row('broken').locator('.badge').first().innerText()).toBe('failed');
    expect(await row('mixed').locator('.badge').first().innerText()).toBe('partial');
    expect(await row('artists').locator('.badge').first().innerText()).toBe('succeeded');
    expect(await row('nightly').getAttribute('class')).toBe('attention');
    expect(await row('nightly').locator('.badge.status-late').innerText()).toMatch(/^missed \d{4}-\d\d-\d\d 02:00:00 UTC$/);
    expect(await page.locator('.attention-summary').innerText()).toContain('2 jobs need attention');
    expect(await row('artists').innerText()).toContain('0 3 * * *');
  });

  it('charts a point per tick of a job, coloured by how the tick went', async () => {
    const page = await open('/runs');
    await page.click('a:text-is("artists")');
    await page.waitForURL('**/runs/jobs/artists');
    const { rows } = await database.pool.query<{ n: number }>(`select count(*)::int as n from job_ticks where job = 'artists'`);
    expect(await page.locator('svg.chart circle.tick-point').count()).toBe(rows[0]!.n);
    expect(await page.locator('svg.chart circle.tick-point.status-succeeded').count()).toBe(rows[0]!.n);
    await page.goto(`${base}/runs/jobs/mixed`);
    expect(await page.locator('svg.chart circle.tick-point.status-partial').count()).toBe(1);
    await page.screenshot({ path: join(ARTIFACTS, 'job.png'), fullPage: true });
  });

  it('shows an upstream error as text, never as markup or script', async () => {
    const page = await open('/runs/jobs/broken');
    const failedRun = page.locator('table.runs tr.attention').first();
    expect(await failedRun.innerText()).toContain(HOSTILE_MESSAGE);
    expect(await page.evaluate('window.__xss')).toBeUndefined();
    expect(await page.locator('main img, main script').count()).toBe(0);
  });

  it('filters a job’s runs by status', async () => {
    const page = await open('/runs/jobs/mixed');
    expect(await page.locator('table.runs tbody tr').count()).toBe(2);
    await page.click('.filters a:text-is("failed")');
    await page.waitForURL('**/runs/jobs/mixed?status=failed');
    const statuses = await page.locator('table.runs tbody tr .badge').allInnerTexts();
    expect(statuses).toEqual(['failed']);
  });

  it('shows a failed run’s error and its tick notice’s delivery attempts', async () => {
    const page = await open('/runs/jobs/broken');
    await page.locator('table.runs tr.attention a').first().click();
    await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
    expect(await page.locator('#run-error').innerText()).toContain(HOSTILE_MESSAGE);
    const attempts = page.locator('#attempts tbody tr');
    expect(await attempts.count()).toBeGreaterThanOrEqual(1);
    expect(await attempts.first().innerText()).toContain('200');
    expect(await page.locator('#notice').innerText()).toContain('job.failed');
    await page.screenshot({ path: join(ARTIFACTS, 'run.png'), fullPage: true });
  });

  it("shows what the upstream warned beside the data on the run's page, as text", async () => {
    const warning = '<b>OK-Missing/Invalid API Key</b>, rate limit of 1/5sec applied';
    const { rows } = await database.pool.query<{ id: string }>(`update sync_runs set warnings = array[$1] where job = 'dirty' returning id`, [warning]);
    expect(rows.length).toBeGreaterThan(0);
    const page = await open(`/runs/${rows[0]!.id}`);
    expect(await page.locator('#run-warnings li').allInnerTexts()).toEqual([warning]);
  });

  it("shows a traced run's trace id, and nothing of a trace for an untraced one", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const { rows } = await database.pool.query<{ id: string }>(`update sync_runs set trace_id = $1 where job = 'dirty' returning id`, [traceId]);
    expect(rows.length).toBeGreaterThan(0);
    const traced = await open(`/runs/${rows[0]!.id}`);
    expect(await traced.locator('#run-trace').innerText()).toBe(traceId);
    const { rows: untraced } = await database.pool.query<{ id: string }>(`select id from sync_runs where trace_id is null limit 1`);
    const plain = await open(`/runs/${untraced[0]!.id}`);
    expect(await plain.locator('#run-trace').count()).toBe(0);
  });

  it('marks a partial run and its tick apart from failed ones, and shows why it did not get everything', async () => {
    const page = await open('/runs/jobs/capped');
    expect(await page.locator('#ticks tbody tr').first().getAttribute('class')).toBe('partial');
    const run = page.locator('table.runs tbody tr').first();
    expect(await run.getAttribute('class')).toBe('partial');
    expect(await run.locator('.badge').innerText()).toBe('partial');
    await run.locator('a').click();
    await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
    const why = page.locator('#run-error');
    expect(await why.getAttribute('class')).toBe('error partial');
    expect(await why.innerText()).toMatch(/^Partial, did not get everything: max_pages: stopped at paging\.maxPages \(1\) after reading 50 records of the \d+ the upstream states$/);
    await page.screenshot({ path: join(ARTIFACTS, 'partial-run.png'), fullPage: true });
  });

  it('says beside a tick and its run how many records were skipped into dead_letters, and on the run’s page', async () => {
    const page = await open('/runs/jobs/dirty');
    expect(await page.locator('#ticks tbody tr').first().locator('.skipped').innerText()).toBe('1 record skipped');
    const run = page.locator('table.runs tbody tr').first();
    expect(await run.locator('.skipped').innerText()).toBe('1 record skipped');
    await run.locator('a').click();
    await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
    // Its good record may be new or unchanged: other jobs store the same kind and key.
    expect(await page.locator('dd', { hasText: 'skipped into dead_letters' }).innerText()).toMatch(/^\d new, 0 updated, \d unchanged, 1 skipped into dead_letters$/);
  });

  it('lists a run’s stored pages and links each to its metadata', async () => {
    const page = await open('/runs/jobs/artists');
    await page.locator('table.runs tbody tr a').first().click();
    await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
    const pageRows = page.locator('#pages tbody tr');
    const { rows } = await database.pool.query<{ pages: number }>(`select pages from sync_runs where id = $1`, [page.url().split('/').pop()]);
    expect(await pageRows.count()).toBe(Math.min(rows[0]!.pages, 50));
    await pageRows.first().locator('a').click();
    await page.waitForURL(/\/pages\/1$/);
    const meta = JSON.parse(await page.locator('body').innerText()) as { pageSeq: number; bytes: number; latencyMs: number; requestUrl: string };
    expect(meta.pageSeq).toBe(1);
    expect(meta.bytes).toBeGreaterThan(0);
    expect(meta.latencyMs).toBeGreaterThanOrEqual(0);
    expect(meta.requestUrl).not.toContain(simulator.apiKey);
  });

  it('answers unknown jobs and runs with a 404 page, and a bad page number with a 400 page naming it', async () => {
    const page = await context.newPage();
    const job = await page.goto(`${base}/runs/jobs/no-such-job`);
    expect(job?.status()).toBe(404);
    expect(await page.locator('main').innerText()).toContain('There is no job named no-such-job');
    expect((await page.goto(`${base}/runs/00000000-0000-4000-8000-000000000000`))?.status()).toBe(404);
    const bad = await page.goto(`${base}/runs/jobs/artists?page=abc`);
    expect(bad?.status()).toBe(400);
    expect(await page.locator('main').innerText()).toContain('query parameter page must be a whole number');
  });

  it('fits a 1280-pixel-wide window: no column of a table is cut, on the overview, a job’s page or a run’s', async () => {
    const { rows } = await database.pool.query<{ id: string }>(`select id from sync_runs where job = 'broken' limit 1`);
    const paths = ['/runs', ...['artists', 'capped', 'mixed', 'broken', 'dirty', 'nightly'].map((job) => `/runs/jobs/${job}`), `/runs/${rows[0]!.id}`];
    const page = await context.newPage();
    const cut: string[] = [];
    for (const path of paths) {
      expect((await page.goto(`${base}${path}`))?.status()).toBe(200);
      cut.push(...(await cutCells(page)).map((cell) => `${path} ${cell}`));
    }
    expect(page.viewportSize()?.width).toBe(1280);
    expect(cut).toEqual([]);
  });

  it('fits a phone’s width: only tables scroll sideways, not the page', async () => {
    const phone = await browser.newContext({ httpCredentials: { username: auth.user, password: auth.password }, viewport: { width: 390, height: 844 }, isMobile: true });
    try {
      const page = await phone.newPage();
      for (const path of ['/runs', '/runs/jobs/mixed']) {
        await page.goto(`${base}${path}`);
        expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      }
      await page.goto(`${base}/runs`);
      await page.screenshot({ path: join(ARTIFACTS, 'overview-phone.png'), fullPage: true });
    } finally {
      await phone.close();
    }
  });
});
