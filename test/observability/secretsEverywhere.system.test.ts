import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { openRedis } from '../../src/redis/openRedis.js';
import { freePort } from '../../src/localstack/freePort.js';
import { enqueueByCli, startedFeedsync, startFeedsync, waitFor, writeConfig, type FeedsyncProcess } from '../support/feedsyncProcess.js';
import { startLocalApi, type LocalApi } from '../support/localApi.js';
import { echoedForms, leaksIn, unicodeEscaped } from '../support/secretEncodings.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';
import { startTestReceiver, type TestReceiver } from '../support/testReceiver.js';

const API_KEY = 'sk-live-7f3a9c2e1b8d4f6a0c5e-hostile';
/** A key put in the job's params, as some users do. */
const PARAM_KEY = 'pk-param-0f1e2d3c4b5a69788796';
const WEBHOOK_KEY = Buffer.from('an echo test signing secret 0123456789').toString('base64');
const WEBHOOK_SECRET = `whsec_${WEBHOOK_KEY}`;
const SECRETS = { apiKey: API_KEY, paramKey: PARAM_KEY, webhookSecret: WEBHOOK_SECRET, webhookKey: WEBHOOK_KEY };
const DASHBOARD = { user: 'ops', password: 'dashboard-pass-0123' };
const PG_DUMP = '/usr/lib/postgresql/15/bin/pg_dump';

/** Every secret in every plain encoding, and once more as JSON `\u` escapes: text for a JSON string. */
const echoedInJson = Object.values(SECRETS)
  .flatMap((secret) => [...echoedForms(secret), unicodeEscaped(secret)])
  .join(' ');

/**
 * An upstream that echoes every configured secret in every encoding, by query: `records` in the
 * records of a successful page, `refused` in a 401's body, `redirect` in a 302's Location, `flaky`
 * in a 503's body (retried, then failed: its error reaches BullMQ's failedReason and stack trace).
 */
function hostileUpstream(): Promise<LocalApi> {
  return startLocalApi((request, response) => {
    const q = new URL(request.url ?? '/', 'http://upstream').searchParams.get('q');
    const answer = (status: number, body: string, headers: Record<string, string> = {}) => response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
    const error = `{"status":"error","data":null,"message":"Invalid key: ${echoedInJson}"}`;
    if (q === 'records') {
      const escaped = Object.values(SECRETS).map(unicodeEscaped).join(' ');
      return answer(200, `{"status":"success","data":{"items":[{"id":"r1","echo":"${escaped}"},{"id":"r2","echo":"${echoedInJson}"}]},"message":"ok"}`);
    }
    if (q === 'redirect') {
      const location = `/login?${Object.values(SECRETS).flatMap((secret, index) => echoedForms(secret).map((form, at) => `e${index}_${at}=${form}`)).join('&')}`;
      return answer(302, '', { location });
    }
    return answer(q === 'refused' ? 401 : 503, error);
  });
}

let upstream: LocalApi;
let receiver: TestReceiver;
let database: TestDatabase;
let worker: FeedsyncProcess;
let historyUrl: string;
const prefix = `test-${randomBytes(4).toString('hex')}`;
const queries = ['records', 'refused', 'redirect', 'flaky'];
/** Every line the worker and the command line wrote. */
const terminal: string[] = [];

beforeAll(async () => {
  [upstream, receiver, database] = await Promise.all([hostileUpstream(), startTestReceiver(), createTestDatabase()]);
  const port = await freePort();
  historyUrl = `http://127.0.0.1:${port}`;
  const file = await writeConfig({
    sources: { echo: { baseUrl: upstream.baseUrl, apiKey: '${ECHO_KEY}', path: '/api', retry: { attempts: 2, baseDelayMs: 10, maxDelayMs: 20 } } },
    jobs: [{ name: 'echoed', source: 'echo', params: { api_key: '${PARAM_KEY}' }, records: { path: 'items', kind: 'echoed', key: 'id' }, queries: queries.map((q) => ({ q })) }],
    kinds: { echoed: { columns: { echo: { path: 'echo', type: 'text' } } } },
    webhook: { baseUrl: receiver.baseUrl, uuid: '3f0c8a4e-6d3b-4a8e-9b1e-2a7c5d9e0f11', secret: '${WEBHOOK_SECRET}', retryScheduleMs: [100], notices: 'both' },
    worker: { prefix, httpPort: port, dashboard: true, attempts: 2, backoffMs: 50 },
  });
  const env = { DATABASE_URL: database.url, REDIS_URL: inject('redisUrl'), ECHO_KEY: API_KEY, PARAM_KEY, WEBHOOK_SECRET, DASHBOARD_USER: DASHBOARD.user, DASHBOARD_PASSWORD: DASHBOARD.password };
  const check = startFeedsync(['config', 'check', file], env);
  await check.exited;
  terminal.push(check.output());
  worker = await startedFeedsync(['worker', '--config', file], env);
  await enqueueByCli('echoed', file, env);
  await waitFor(
    'every run to end and every notice to be delivered',
    async () => {
      const { rows } = await database.pool.query<{ ended: number; delivered: number }>(
        `select (select count(*)::int from sync_runs where status in ('succeeded', 'failed')) as ended, (select count(*)::int from notices where state = 'delivered') as delivered`,
      );
      // One notice a run, and the tick's.
      return rows[0]!.ended === queries.length && rows[0]!.delivered === queries.length + 1;
    },
    60_000,
  );
  const status = startFeedsync(['status', '--config', file], env);
  await status.exited;
  terminal.push(status.output());
}, 120_000);

afterAll(async () => {
  worker?.kill('SIGTERM');
  await worker?.exited;
  await Promise.all([upstream?.close(), receiver?.close()]);
  await database?.drop();
});

/** Each key of the queue's prefix in Redis, with its contents as text, whatever its type. */
async function redisContents(): Promise<string> {
  const redis = openRedis(inject('redisUrl'), 'producer');
  try {
    const keys = await redis.keys(`${prefix}:*`);
    const contents = await Promise.all(
      keys.map(async (key) => {
        const type = await redis.type(key);
        if (type === 'string') return redis.get(key);
        if (type === 'hash') return redis.hgetall(key);
        if (type === 'list') return redis.lrange(key, '0', '-1');
        if (type === 'set') return redis.smembers(key);
        if (type === 'zset') return redis.zrange(key, '0', '-1', 'WITHSCORES');
        if (type === 'stream') return redis.xrange(key, '-', '+');
        return `unread type ${type}`;
      }),
    );
    return JSON.stringify(Object.fromEntries(keys.map((key, index) => [key, contents[index]])));
  } finally {
    redis.disconnect();
  }
}

async function historyPage(path: string): Promise<string> {
  const response = await fetch(`${historyUrl}${path}`, { headers: { authorization: `Basic ${Buffer.from(`${DASHBOARD.user}:${DASHBOARD.password}`).toString('base64')}` } });
  expect(response.status, path).toBe(200);
  return response.text();
}

describe('an upstream that echoes every configured secret in every encoding', () => {
  it('gets none of them into any table', async () => {
    const { stdout } = await promisify(execFile)(PG_DUMP, ['--data-only', database.url], { maxBuffer: 64 * 1024 * 1024 });
    expect(stdout).toContain('***');
    expect(leaksIn(stdout, SECRETS)).toEqual([]);
  });

  it('gets none of them into the records of its successful page, or their view', async () => {
    const { rows } = await database.pool.query<{ payload: string }>(`select payload::text from records union all select e::text from analytics.echoed e`);
    expect(rows.length).toBe(4);
    expect(rows.map((row) => row.payload).join('\n')).toContain('***');
    expect(leaksIn(rows.map((row) => row.payload).join('\n'), SECRETS)).toEqual([]);
  });

  it('gets none of them into Redis, failed reasons and stack traces included', async () => {
    const contents = await redisContents();
    expect(contents).toContain('failedReason');
    expect(leaksIn(contents, SECRETS)).toEqual([]);
  });

  it('gets none of them into the log or the terminal', () => {
    const output = [...terminal, worker.output()].join('\n');
    expect(output).toContain('retrying request');
    expect(leaksIn(output, SECRETS)).toEqual([]);
  });

  it('warns once of each attempt at a run that had secrets scrubbed', () => {
    const warnings = worker.output().split('\n').filter((line) => line.includes('the upstream echoed a configured secret'));
    // A run per query, and the flaky one's second attempt.
    expect(warnings).toHaveLength(queries.length + 1);
  });

  it('gets none of them into the notices posted to the webhook', () => {
    const bodies = receiver.received.map((request) => request.body).join('\n');
    expect(bodies).toContain('***');
    expect(leaksIn(bodies, SECRETS)).toEqual([]);
  });

  it('gets none of them into the history pages', async () => {
    const { rows } = await database.pool.query<{ id: string; pages: number }>('select id, pages from sync_runs');
    const paths = ['/runs', '/runs/jobs/echoed', ...rows.flatMap((run) => [`/runs/${run.id}`, ...Array.from({ length: run.pages }, (_, page) => `/runs/${run.id}/pages/${page + 1}`)])];
    const pages = await Promise.all(paths.map(historyPage));
    expect(leaksIn(pages.join('\n'), SECRETS)).toEqual([]);
  });

  it('warns at config check of the key put in params, without its value', () => {
    expect(terminal[0]).toContain('jobs[0].params.api_key: looks like a credential');
    expect(leaksIn(terminal[0]!, SECRETS)).toEqual([]);
  });
});
