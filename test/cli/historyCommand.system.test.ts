import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFeedsync, waitFor, writeConfig, type FeedsyncProcess } from '../support/feedsyncProcess.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';

const credentials = { DASHBOARD_USER: 'ops', DASHBOARD_PASSWORD: 'history-cli-secret' };
const basic = `Basic ${Buffer.from(`${credentials.DASHBOARD_USER}:${credentials.DASHBOARD_PASSWORD}`).toString('base64')}`;

let database: TestDatabase;
let configFile: string;

beforeAll(async () => {
  database = await createTestDatabase();
  // Upstream settings whose variables this test never sets: the history must not need them.
  configFile = await writeConfig({
    sources: { music: { baseUrl: '${HISTORY_TEST_MUSIC_URL}', apiKey: '${HISTORY_TEST_MUSIC_KEY}', path: '/2.0/' } },
    jobs: [{ name: 'nightly-artists', source: 'music', schedule: { cron: '0 2 * * *' }, records: { path: 'x', kind: 'artist' }, queries: [{ q: 'a' }] }],
    webhook: { baseUrl: 'http://127.0.0.1:9', uuid: '${HISTORY_TEST_WEBHOOK_UUID}' },
    worker: {},
  });
  await database.pool.query(
    `insert into job_ticks (tick_key, job, trigger, status, runs_total, runs_done, runs_succeeded, records_new, finished_at)
      values ('manual/nightly-artists/history-cli', 'nightly-artists', 'enqueue', 'succeeded', 1, 1, 1, 42, now())`,
  );
});
afterAll(() => database.drop());

/** Starts `feedsync history` on a free port; resolves with the process and the URL it printed. */
async function startHistory(env: Record<string, string>): Promise<{ process: FeedsyncProcess; base: string }> {
  const process = startFeedsync(['history', '--port', '0', '--config', configFile], { DATABASE_URL: database.url, LOG_LEVEL: 'warn', ...env });
  const base = await waitFor('the history URL', () => /run history at (http:\/\/\S+)\/runs/.exec(process.output())?.[1], 30_000).catch((error: Error) => {
    process.kill('SIGKILL');
    throw new Error(`${error.message}\n${process.output()}`);
  });
  return { process, base };
}

describe('feedsync history', () => {
  it('serves the run history from Postgres alone, with none of the upstreams’ variables set, until SIGTERM', async () => {
    const { process, base } = await startHistory(credentials);
    try {
      const page = await fetch(`${base}/runs`, { headers: { authorization: basic } });
      expect(page.status).toBe(200);
      const text = await page.text();
      expect(text).toContain('nightly-artists');
      expect(text).toContain('0 2 * * *');
      expect(text).toContain('succeeded');
      expect((await fetch(`${base}/runs`)).status).toBe(401);
    } finally {
      process.kill('SIGTERM');
    }
    expect((await process.exited).code, process.output()).toBe(0);
  });

  it('refuses to serve without DASHBOARD_USER and DASHBOARD_PASSWORD, naming them', async () => {
    const process = startFeedsync(['history', '--port', '0', '--config', configFile], { DATABASE_URL: database.url, DASHBOARD_USER: '', DASHBOARD_PASSWORD: '' });
    const { code } = await process.exited;
    expect(code).not.toBe(0);
    expect(process.output()).toContain('feedsync history needs DASHBOARD_USER and DASHBOARD_PASSWORD');
  });
});
