import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, inject } from 'vitest';
import type { ConfigInput } from '../../src/config/schema.js';
import { startSimulator, type Simulator } from '../../src/simulator/startSimulator.js';
import { enqueueByCli, startedFeedsync, startFeedsync, waitFor, writeConfig, type FeedsyncProcess } from '../support/feedsyncProcess.js';
import { ancestorsOf, exportedSpans, otlpEnv, type ExportedSpan } from '../support/otlpSpans.js';
import { echoedForms } from '../support/secretEncodings.js';
import { startLocalApi } from '../support/localApi.js';
import { simulatorSources } from '../support/syncFixture.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';
import { startTestReceiver, type TestReceiver } from '../support/testReceiver.js';

let simulator: Simulator;
let database: TestDatabase;
let collector: TestReceiver;
let webhook: TestReceiver;
const processes: FeedsyncProcess[] = [];

beforeAll(async () => {
  simulator = await startSimulator({ seed: 9, music: { artists: 400, users: 2, playsPerUser: 5 }, chain: { initialHead: 10, blockIntervalMs: 0 } });
  database = await createTestDatabase();
  collector = await startTestReceiver();
  webhook = await startTestReceiver();
});
afterEach(async () => {
  for (const process of processes.splice(0)) {
    if (process.child.exitCode === null && process.child.signalCode === null) process.kill('SIGKILL');
    await process.exited;
  }
  collector.reset();
  webhook.reset();
});
afterAll(async () => {
  await Promise.all([simulator.close(), collector.close(), webhook.close()]);
  await database.drop();
});

/** Artist search at 50 a page, several pages; run and job notices both posted. */
function config(): ConfigInput {
  return {
    sources: simulatorSources(simulator),
    jobs: [{ name: 'artists', source: 'music', records: { path: 'results.artistmatches.artist', kind: 'artist' }, paging: { limit: 50 }, queries: [{ q: 'a', params: { method: 'artist.search' } }] }],
    webhook: { baseUrl: webhook.baseUrl, uuid: randomUUID(), notices: 'both' },
    worker: { prefix: `test-${randomBytes(4).toString('hex')}`, httpPort: 0 },
  };
}

/**
 * One job tick with tracing on: a worker exporting to the test collector, the tick enqueued by
 * `feedsync enqueue`, both notices delivered, then the worker stopped by SIGTERM (which flushes
 * its spans). Returns the run's id, the spans, and the worker's output.
 */
async function tracedTick(): Promise<{ runId: string; spans: ExportedSpan[]; output: string }> {
  const file = await writeConfig(config());
  const env = { REDIS_URL: inject('redisUrl'), DATABASE_URL: database.url, ...otlpEnv(collector.baseUrl) };
  const worker = await startedFeedsync(['worker', '--config', file], env);
  processes.push(worker);
  const runId = await enqueueByCli('artists', file, env);
  await waitFor('the run and the job notice delivered', () => webhook.received.length >= 2, 30_000);
  worker.kill('SIGTERM');
  expect((await worker.exited).code, worker.output()).toBe(0);
  return { runId, spans: exportedSpans(collector.received), output: worker.output() };
}

const one = (spans: readonly ExportedSpan[], name: string): ExportedSpan => {
  const found = spans.filter((span) => span.name === name);
  expect(found.map((span) => span.name), `spans named ${name}`).toEqual([name]);
  return found[0]!;
};

describe('tracing', () => {
  it('links the tick, run, page and notice spans of one job tick as one trace', async () => {
    const { spans } = await tracedTick();
    const tick = one(spans, 'tick artists');
    const run = one(spans, 'run artists');
    const inTrace = spans.filter((span) => span.traceId === tick.traceId);
    // The run continues the tick's trace across the queue (BullMQ's producer and consumer spans between).
    expect(ancestorsOf(run, inTrace).map((span) => span.spanId)).toContain(tick.spanId);
    const fetches = inTrace.filter((span) => span.name === 'fetch page');
    const stores = inTrace.filter((span) => span.name === 'store page');
    expect(stores.length).toBeGreaterThan(1);
    // Every stored page was fetched; one request may have gone past the last page on a guess (see PagesAhead).
    const fetched = new Set(fetches.map((span) => span.attributes['feedsync.page']));
    expect(stores.every((span) => fetched.has(span.attributes['feedsync.page']))).toBe(true);
    expect(fetches.length - stores.length).toBeLessThanOrEqual(1);
    for (const span of [...fetches, ...stores]) expect(span.parentSpanId).toBe(run.spanId);
    const requests = inTrace.filter((span) => span.name === 'GET');
    expect(requests.every((span) => fetches.some((fetch) => fetch.spanId === span.parentSpanId) && span.attributes['http.response.status_code'] === 200)).toBe(true);
    const deliveries = inTrace.filter((span) => span.name === 'POST');
    // The run's notice continues the run's span, the job's notice the tick's.
    expect(deliveries.map((span) => span.parentSpanId).sort()).toEqual([run.spanId, tick.spanId].sort());
  });

  it('makes a tick of `feedsync run` one trace too, its runs and notices under its tick', async () => {
    const file = await writeConfig(config());
    const run = startFeedsync(['run', 'artists', '--config', file], { DATABASE_URL: database.url, REDIS_URL: '', ...otlpEnv(collector.baseUrl) });
    expect((await run.exited).code, run.output()).toBe(0);
    const spans = exportedSpans(collector.received);
    const tick = one(spans, 'tick artists');
    expect(one(spans, 'run artists').parentSpanId).toBe(tick.spanId);
    const deliveries = spans.filter((span) => span.name === 'POST');
    expect(deliveries.length).toBe(2);
    expect(deliveries.every((span) => span.traceId === tick.traceId)).toBe(true);
  });

  it('keeps the trace id on the run row, in its log lines and in the notices traceparent', async () => {
    const { runId, spans, output } = await tracedTick();
    const { traceId } = one(spans, 'run artists');
    const { rows } = await database.pool.query<{ trace_id: string | null }>('select trace_id from sync_runs where id = $1', [runId]);
    expect(rows[0]?.trace_id).toBe(traceId);
    const runLines = output.split('\n').filter((line) => line.includes(`"runId":"${runId}"`));
    expect(runLines.length).toBeGreaterThan(0);
    expect(runLines.filter((line) => !line.includes(`"traceId":"${traceId}"`))).toEqual([]);
    const traceparents = webhook.received.map((request) => String(request.headers.traceparent));
    expect(traceparents.map((header) => header.split('-')[1])).toEqual([traceId, traceId]);
  });

  it('exports no form of the source key in any span, though the upstream echoes it', async () => {
    const key = 'sk-trace-3c9e1a7b5d2f4e6a8c0b';
    // Answers every request 401, quoting the key the query string carried, plain and in base64.
    const upstream = await startLocalApi((request, response) => {
      const sent = new URL(request.url ?? '/', 'http://upstream').searchParams.get('api_key') ?? '';
      response.statusCode = 401;
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ status: 'error', data: null, message: `Invalid API key ${sent} (${Buffer.from(sent).toString('base64')})` }));
    });
    try {
      const file = await writeConfig({
        sources: { echo: { baseUrl: upstream.baseUrl, auth: { type: 'query', name: 'api_key', value: '${ECHO_KEY}' }, path: '/api', retry: { attempts: 1 } } },
        jobs: [{ name: 'echoed', source: 'echo', records: { path: 'items', kind: 'item', key: 'id' }, queries: [{ q: 'x' }] }],
      });
      const run = startFeedsync(['run', 'echoed', '--config', file], { DATABASE_URL: database.url, ECHO_KEY: key, REDIS_URL: '', ...otlpEnv(collector.baseUrl) });
      expect((await run.exited).code, run.output()).not.toBe(0);
    } finally {
      await upstream.close();
    }
    const request = one(exportedSpans(collector.received), 'GET');
    // The span says what went wrong, where, without the key.
    expect(request.attributes['url.full']).toContain('api_key=***');
    expect(request.status.message).toContain('Invalid API key ***');
    const exported = collector.received.map((received) => received.body).join('\n');
    for (const form of echoedForms(key)) expect(exported).not.toContain(form);
  });
});
