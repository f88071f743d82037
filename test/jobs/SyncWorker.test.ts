import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it, inject } from 'vitest';
import { parseConfig } from '../../src/config/loadConfig.js';
import type { Config, ConfigInput } from '../../src/config/schema.js';
import { enqueueRuns, waitForRuns } from '../../src/jobs/enqueueRuns.js';
import { redisConnection } from '../../src/jobs/queues.js';
import { WorkerProcess } from '../../src/jobs/WorkerProcess.js';
import { startSimulator, type Simulator } from '../../src/simulator/startSimulator.js';
import { capturingLogger, simulatorSources } from '../support/syncFixture.js';
import { waitFor } from '../support/feedsyncProcess.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';

let simulator: Simulator;
let database: TestDatabase;
let feedsync: WorkerProcess | undefined;
const secret = `whsec_${Buffer.from('sync worker test secret 0123456').toString('base64')}`;

beforeAll(async () => {
  simulator = await startSimulator({ seed: 11, music: { artists: 600, users: 5, playsPerUser: 50 }, chain: { initialHead: 500, blockIntervalMs: 0 } });
  database = await createTestDatabase();
});
afterEach(async () => {
  await feedsync?.close();
  feedsync = undefined;
  simulator.reset();
});
afterAll(async () => {
  await simulator.close();
  await database.drop();
});

function configWith(webhook: Partial<ConfigInput['webhook']> = {}, worker: ConfigInput['worker'] = {}): Config {
  return parseConfig(
    {
      sources: simulatorSources(simulator),
      jobs: [
        { name: 'artists', source: 'music', records: { path: 'results.artistmatches.artist', kind: 'artist' }, queries: [{ q: 'a', params: { method: 'artist.search' } }] },
        { name: 'bad-method', source: 'music', records: { path: 'x', kind: 'artist' }, queries: [{ q: 'a', params: { method: 'artist.nope' } }] },
      ],
      webhook: { baseUrl: simulator.webhookBaseUrl, uuid: simulator.webhookUuid, secret, retryScheduleMs: [200], ...webhook },
      worker: { prefix: `test-${randomBytes(4).toString('hex')}`, attempts: 2, backoffMs: 100, ...worker },
    },
    'test',
    {},
  );
}

async function start(config: Config) {
  feedsync = await WorkerProcess.open({ config, redisUrl: inject('redisUrl'), databaseUrl: database.url, logger: capturingLogger().logger, roles: { worker: true, scheduler: false } });
  await feedsync.start();
  return feedsync;
}

async function runNow(config: Config, job: string) {
  const process = await start(config);
  const runs = await enqueueRuns(config, process.queues, job);
  const connection = redisConnection(inject('redisUrl'), 'worker');
  try {
    const [end] = await waitForRuns(connection, process.queues, runs, 20_000);
    return { run: runs[0]!, end: end! };
  } finally {
    connection.disconnect();
  }
}

const runRow = (id: string) => database.pool.query<{ status: string; attempt: number; error: string | null }>('select status, attempt, error from sync_runs where id = $1', [id]).then((r) => r.rows[0]);

describe('SyncWorker', () => {
  it('runs a queued job and delivers a signed success notice the standardwebhooks package verifies', async () => {
    const config = configWith();
    const { run, end } = await runNow(config, 'artists');
    expect(end.ok).toBe(true);
    expect(await runRow(run.runId)).toMatchObject({ status: 'succeeded', attempt: 1 });
    const [notice] = await waitFor('the notice', () => {
      const received = simulator.requests(simulator.webhookUuid);
      return received.length > 0 && received;
    });
    const body = new Webhook(secret).verify(notice!.body, notice!.headers) as { type: string; data: { runId: string } };
    expect(body).toMatchObject({ type: 'sync.succeeded', data: { runId: run.runId } });
  });

  it('retries a failing run, then fails it for good and still sends a failure notice', async () => {
    simulator.setFaults('music', { shares: { serverError: 1 } });
    const config = configWith();
    const { run, end } = await runNow(config, 'artists');
    expect(end.ok).toBe(false);
    expect(await runRow(run.runId)).toMatchObject({ status: 'failed', attempt: 2 });
    const job = await feedsync!.queues.sync.getJob(run.runKey);
    expect(await job?.getState()).toBe('failed');
    expect(job?.attemptsMade).toBe(2);
    const notices = await waitFor('the failure notice', async () => {
      const { rows } = await database.pool.query<{ type: string; state: string }>('select type, state from notices where run_id = $1', [run.runId]);
      return rows[0]?.state === 'delivered' && rows;
    });
    expect(notices).toEqual([{ type: 'sync.failed', state: 'delivered' }]);
  });

  it('does not retry an error that cannot succeed (HTTP 400)', async () => {
    const config = configWith();
    const { run, end } = await runNow(config, 'bad-method');
    expect(end.ok).toBe(false);
    expect(await runRow(run.runId)).toMatchObject({ status: 'failed', attempt: 1 });
  });

  it('keeps a notice through a webhook outage and delivers it with one webhook-id across attempts', async () => {
    simulator.setFaults('webhook', { outage: { forMs: 1500 } });
    const config = configWith({ retryScheduleMs: [300] });
    const { run, end } = await runNow(config, 'artists');
    expect(end.ok).toBe(true);
    const received = await waitFor('delivery after the outage', () => {
      const requests = simulator.requests(simulator.webhookUuid).filter((r) => (JSON.parse(r.body) as { data: { runId: string } }).data.runId === run.runId);
      return requests.length > 0 && requests;
    }, 15_000);
    await waitFor('the outbox to record the delivery', async () => {
      const { rows } = await database.pool.query<{ state: string }>('select state from notices where run_id = $1', [run.runId]);
      return rows[0]?.state === 'delivered';
    });
    const { rows } = await database.pool.query<{ id: string; attempts: number; http_statuses: (number | null)[] }>(
      `select n.id, n.attempts, array_agg(a.http_status order by a.id) as http_statuses from notices n join notice_attempts a on a.notice_id = n.id where n.run_id = $1 group by n.id`,
      [run.runId],
    );
    expect(rows[0]!.attempts).toBeGreaterThanOrEqual(2);
    expect(rows[0]!.http_statuses.slice(0, -1).every((status) => status === 503)).toBe(true);
    expect(rows[0]!.http_statuses.at(-1)).toBe(200);
    expect(received.map((request) => request.headers['webhook-id'])).toEqual([rows[0]!.id]);
    expect(await runRow(run.runId)).toMatchObject({ status: 'succeeded', attempt: 1 });
  });

  it('trims completed jobs and caps the event stream, so Redis memory stays bounded', async () => {
    const config = configWith({}, { keepCompleted: { ageS: 3600, count: 2 }, eventsMaxLen: 10 });
    const process = await start(config);
    const runs = [];
    // Redis trims a stream in whole nodes (100 entries): enough runs that an uncapped stream is well past that.
    const count = 40;
    for (let i = 0; i < count; i++) runs.push(...(await enqueueRuns(config, process.queues, 'artists')));
    const connection = redisConnection(inject('redisUrl'), 'worker');
    await waitForRuns(connection, process.queues, runs, 20_000).finally(() => connection.disconnect());
    expect(await process.queues.sync.getJobCountByTypes('completed')).toBe(2);
    const redis = new Redis(inject('redisUrl'));
    const events = await redis.xlen(`${config.worker.prefix}:sync:events`);
    redis.disconnect();
    // Each job adds at least four events (added, waiting, active, completed).
    expect(events).toBeLessThan(count * 3);
  });
});
