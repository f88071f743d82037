import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it, inject } from 'vitest';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import type { Config, ConfigInput } from '../../src/config/schema.js';
import { enqueueRuns, waitForRuns } from '../../src/jobs/enqueueRuns.js';
import { openRedis } from '../../src/redis/openRedis.js';
import { WorkerProcess } from '../../src/runtime/WorkerProcess.js';
import { startSimulator, type Simulator } from '../../src/simulator/startSimulator.js';
import type { TickRun } from '../../src/storage/ticks/JobTicks.js';
import { openRunStore } from '../../src/storage/runStore.js';
import { capturingLogger, queryOf, simulatorSources } from '../support/syncFixture.js';
import { waitFor } from '../support/feedsyncProcess.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';
import { startTestReceiver, type TestReceiver } from '../support/testReceiver.js';

let simulator: Simulator;
let database: TestDatabase;
/** A webhook that logs every request, those it answers with an error included (the simulator's logs only those it accepts). */
let receiver: TestReceiver;
let feedsync: WorkerProcess | undefined;
const secret = `whsec_${Buffer.from('sync worker test secret 0123456').toString('base64')}`;

beforeAll(async () => {
  simulator = await startSimulator({ seed: 11, music: { artists: 600, users: 5, playsPerUser: 50 }, chain: { initialHead: 500, blockIntervalMs: 0 } });
  database = await createTestDatabase();
  receiver = await startTestReceiver();
});
afterEach(async () => {
  await feedsync?.close();
  feedsync = undefined;
  simulator.reset();
  receiver.reset();
});
afterAll(async () => {
  await receiver.close();
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
      webhook: { baseUrl: simulator.webhookBaseUrl, uuid: simulator.webhookUuid, secret, retryScheduleMs: [200], notices: 'run', ...webhook },
      worker: { prefix: `test-${randomBytes(4).toString('hex')}`, attempts: 2, backoffMs: 100, ...worker },
    },
    'test',
    {},
  );
}

/** The lines the worker process under test logged. */
let logged: string[] = [];

async function start(config: Config) {
  const capture = capturingLogger();
  logged = capture.lines;
  feedsync = await WorkerProcess.open({ config, redis: inject('redisUrl'), databaseUrl: database.url, logger: capture.logger, roles: { worker: true, scheduler: false } });
  await feedsync.start();
  return feedsync;
}

async function runNow(config: Config, job: string) {
  const process = await start(config);
  const { runs } = await enqueueRuns(config, process.runtime.store, process.queues, job);
  const connection = openRedis(inject('redisUrl'), 'worker');
  try {
    const [end] = await waitForRuns(connection, process.queues, process.runtime.store.claims, runs, 20_000);
    return { run: runs[0]!, end: end! };
  } finally {
    connection.disconnect();
  }
}

/** A worker on `config` running a run of `artists`, slowed to 50 ms a page, once it has stored `pages` pages. */
async function runUnderWay(config: Config, pages: number) {
  simulator.setFaults('music', { latencyMs: 50 });
  const process = await start(config);
  const {
    runs: [run],
  } = await enqueueRuns(config, process.runtime.store, process.queues, 'artists');
  const stored = async () => (await database.pool.query<{ pages: number }>('select pages from sync_runs where id = $1', [run!.runId])).rows[0]?.pages ?? 0;
  await waitFor(`${pages} pages stored`, async () => (await stored()) >= pages);
  return { process, run: run! };
}

/** The receiver answers its first `count` requests with `status`, and 200 from then on. */
function answerFirst(count: number, status: number): void {
  receiver.answer = (response) => {
    response.statusCode = receiver.received.length <= count ? status : 200;
    response.end();
  };
}

const noticeType = (request: { body: string }) => (JSON.parse(request.body) as { type: string }).type;

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

  it('logs each failed attempt of a run once, as the run tells it, not again as the queue job’s', async () => {
    simulator.setFaults('music', { shares: { serverError: 1 } });
    const { end } = await runNow(configWith(), 'artists');
    expect(end.ok).toBe(false);
    const messages = logged.map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(messages.filter((msg) => msg === 'run attempt failed; it will be retried from its checkpoint')).toHaveLength(1);
    expect(messages.filter((msg) => msg === 'run failed')).toHaveLength(1);
    expect(messages).not.toContain('sync job attempt failed');
  });

  it('does not retry an error that cannot succeed (HTTP 400)', async () => {
    const config = configWith();
    const { run, end } = await runNow(config, 'bad-method');
    expect(end.ok).toBe(false);
    expect(await runRow(run.runId)).toMatchObject({ status: 'failed', attempt: 1 });
  });

  it('keeps a notice through a webhook outage and delivers it with one webhook-id across attempts', async () => {
    answerFirst(2, 503);
    const config = configWith({ baseUrl: receiver.baseUrl, retryScheduleMs: [300] });
    const { run, end } = await runNow(config, 'artists');
    expect(end.ok).toBe(true);
    const notice = await waitFor('the outbox to settle the notice', async () => {
      const { rows } = await database.pool.query<{ id: string; state: string }>('select id, state from notices where run_id = $1', [run.runId]);
      return rows[0] !== undefined && rows[0].state !== 'pending' && rows[0];
    }, 15_000);
    expect(notice.state).toBe('delivered');
    const { rows: attempts } = await database.pool.query<{ http_status: number | null }>('select http_status from notice_attempts where notice_id = $1 order by id', [notice.id]);
    expect(attempts.map((attempt) => attempt.http_status)).toEqual([503, 503, 200]);
    expect(receiver.received.map((request) => request.headers['webhook-id'])).toEqual([notice.id, notice.id, notice.id]);
  });

  it('posts one notice, sync.succeeded, for a run whose first attempt failed and whose retry succeeded', async () => {
    const config = configWith({ baseUrl: receiver.baseUrl });
    // Every try at the first page fails, so the run's first attempt fails and BullMQ retries the run.
    simulator.setFaults('music', { sequence: Array.from({ length: config.sources.music!.retry.attempts }, () => 'serverError' as const) });
    const { run, end } = await runNow(config, 'artists');
    expect(end.ok).toBe(true);
    expect(await runRow(run.runId)).toMatchObject({ status: 'succeeded', attempt: 2 });
    await waitFor('the outbox to be empty', async () => {
      const { rows } = await database.pool.query<{ n: string }>(`select count(*) as n from notices where state = 'pending'`);
      return rows[0]!.n === '0';
    });
    expect(receiver.received.map(noticeType)).toEqual(['sync.succeeded']);
  });

  it('hands a run whose row was taken over mid-attempt back to the queue without using its one attempt, and the run resumes to the end', async () => {
    const config = configWith({}, { attempts: 1 });
    const { process, run } = await runUnderWay(config, 2);
    // What a page write that committed as its connection dropped looks like to the worker: the row moved under it.
    const query = process.runtime.config.jobs[0]!;
    await openRunStore(database.db).claims.claim({ runKey: run.runKey, job: 'artists', source: 'music', queryIndex: 0, queryKey: queryOf(config, query.name).queryKey, query: { q: 'a', params: {} } });
    await waitFor('the run to succeed', async () => (await runRow(run.runId))?.status === 'succeeded', 20_000);
    // The run's row is final before BullMQ moves its job on: wait for the job to finish, either way.
    const finished = async () => ['completed', 'failed'].includes(await (await process.queues.sync.getJob(run.runKey))!.getState());
    await waitFor('the job to finish', finished);
    const job = await process.queues.sync.getJob(run.runKey);
    expect(await job?.getState()).toBe('completed');
    expect(job?.attemptsMade).toBe(1);
    const { rows } = await database.pool.query<{ seqs: number[] }>('select array_agg(page_seq order by page_seq) as seqs from envelopes where run_id = $1', [run.runId]);
    expect(rows[0]!.seqs).toEqual(rows[0]!.seqs.map((_, i) => i + 1));
  });

  it("warns once, and logs no error, when Redis loses a run's job while it runs, and the run ends as it would", async () => {
    const config = configWith({}, { lockDurationMs: 400 });
    const { process, run } = await runUnderWay(config, 1);
    // Redis losing its data, for this queue: the job, its lock and its state go.
    const redis = new Redis(inject('redisUrl'));
    const keys = await redis.keys(`${config.worker.prefix}:*`);
    await redis.del(...keys);
    redis.disconnect();
    await waitFor('the run to succeed', async () => (await runRow(run.runId))?.status === 'succeeded', 20_000);
    // Closing waits for the job's end in BullMQ, whose missing key is the last thing reported.
    await process.close();
    feedsync = undefined;
    const lines = logged.map((line) => JSON.parse(line) as { level: number; msg: string; runKey?: string });
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    expect(lines.filter((line) => line.runKey === run.runKey && line.msg.includes('queue job lost')).map((line) => line.level)).toEqual([40]);
  });

  it('tells how runs ended whose finished jobs were trimmed from the queue meanwhile, by their rows', async () => {
    const config = configWith({}, { keepCompleted: { ageS: 3600, count: 1 } });
    const process = await start(config);
    const runs: TickRun[] = [];
    for (let i = 0; i < 3; i++) runs.push(...(await enqueueRuns(config, process.runtime.store, process.queues, 'artists')).runs);
    await waitFor('every run to succeed', async () => (await Promise.all(runs.map((run) => runRow(run.runId)))).every((row) => row?.status === 'succeeded'), 20_000);
    await waitFor('the queue to keep one completed job', async () => (await process.queues.sync.getJobCountByTypes('completed')) === 1);
    const connection = openRedis(inject('redisUrl'), 'worker');
    const ends = await waitForRuns(connection, process.queues, process.runtime.store.claims, runs, 20_000).finally(() => connection.disconnect());
    expect(ends.map((end) => end.ok && end.result.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(ends.map((end) => end.ok && end.result.runId)).toEqual(runs.map((run) => run.runId));
  });

  it('trims completed jobs and caps the event stream, so Redis memory stays bounded', async () => {
    const config = configWith({}, { keepCompleted: { ageS: 3600, count: 2 }, eventsMaxLen: 10 });
    const process = await start(config);
    const runs = [];
    // Redis trims a stream in whole nodes (100 entries): enough runs that an uncapped stream is well past that.
    const count = 40;
    for (let i = 0; i < count; i++) runs.push(...(await enqueueRuns(config, process.runtime.store, process.queues, 'artists')).runs);
    const connection = openRedis(inject('redisUrl'), 'worker');
    await waitForRuns(connection, process.queues, process.runtime.store.claims, runs, 20_000).finally(() => connection.disconnect());
    expect(await process.queues.sync.getJobCountByTypes('completed')).toBe(2);
    const redis = new Redis(inject('redisUrl'));
    const events = await redis.xlen(`${config.worker.prefix}:sync:events`);
    redis.disconnect();
    // Each job adds at least four events (added, waiting, active, completed).
    expect(events).toBeLessThan(count * 3);
  });
});
