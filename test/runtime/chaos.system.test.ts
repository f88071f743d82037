import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import type { ConfigInput } from '../../src/config/schema.js';
import { OPEN_GATE } from '../../src/http/RequestGate.js';
import { SourceClient } from '../../src/http/SourceClient.js';
import { startPostgresServer, type PostgresServer } from '../../src/localstack/postgresServer.js';
import { startRedisServer, type RedisServer } from '../../src/localstack/redisServer.js';
import { startSimulator, type Simulator } from '../../src/simulator/startSimulator.js';
import { openRunStore } from '../../src/storage/runStore.js';
import { inProcessRunKey } from '../../src/sync/runKeys.js';
import { syncQuery } from '../../src/sync/syncQuery.js';
import { enqueueByCli, startedFeedsync, waitFor, writeConfig, type FeedsyncProcess } from '../support/feedsyncProcess.js';
import { capturingLogger, queryOf, simulatorSources } from '../support/syncFixture.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';
import { runIdentityOf } from '../../src/sync/runIdentity.js';

/**
 * One long run through everything that can happen to a deployment at once: two worker
 * processes, the one holding the run killed five times (each replaced), a Postgres crash restart
 * and a Redis restart that loses every key, each while pages are being stored. The run must end
 * as a clean run of the same data ends, announced once.
 */

let simulator: Simulator;
let postgres: PostgresServer;
let redis: RedisServer;
let pool: pg.Pool;
const processes: FeedsyncProcess[] = [];

const PAGE_SIZE = 10;

beforeAll(async () => {
  simulator = await startSimulator({ seed: 29, music: { artists: 6000, users: 2, playsPerUser: 10 }, chain: { initialHead: 100, blockIntervalMs: 0 } });
  postgres = await startPostgresServer();
  // Memory only: a restart loses every queue, job and lock.
  redis = await startRedisServer();
  pool = new pg.Pool({ connectionString: postgres.url, max: 2 });
  // Queries during the Postgres restart fail; the test's polls go on.
  pool.on('error', () => undefined);
});
afterAll(async () => {
  for (const process of processes) if (process.child.exitCode === null && process.child.signalCode === null) process.kill('SIGKILL');
  await Promise.all(processes.map((process) => process.exited));
  await pool?.end();
  await redis?.stop();
  await postgres?.stop();
  await simulator?.close();
});

function chaosConfig(): ConfigInput {
  const sources = simulatorSources(simulator);
  // A request slowed by a loaded machine is not the fault under test: with one attempt, four timeouts in a row would fail the run.
  sources.music = { ...sources.music!, timeoutMs: 15_000 };
  return {
    sources,
    jobs: [{ name: 'artists', source: 'music', records: { path: 'results.artistmatches.artist', kind: 'artist' }, paging: { limit: PAGE_SIZE }, queries: [{ q: 'a', params: { method: 'artist.search' } }] }],
    webhook: { baseUrl: simulator.webhookBaseUrl, uuid: simulator.webhookUuid, retryScheduleMs: [200, 500, 1000] },
    // One attempt: a crash or an outage that used it would fail the run.
    worker: { prefix: `chaos-${randomBytes(4).toString('hex')}`, httpPort: 0, attempts: 1, lockDurationMs: 2000, stalledIntervalMs: 1000, reconcileIntervalMs: 500, reconcileAfterMs: 2000, drainTimeoutMs: 5000 },
  };
}

async function startWorker(configFile: string): Promise<FeedsyncProcess> {
  const worker = await startedFeedsync(['worker', '--config', configFile], { REDIS_URL: redis.url, DATABASE_URL: postgres.url });
  processes.push(worker);
  return worker;
}

/** Pages the worker's log says it stored (at debug level, one line a page). */
const pagesStoredBy = (worker: FeedsyncProcess) => worker.output().split('"msg":"page stored"').length - 1;

/** The worker storing the run's pages now: the first whose log shows a page stored after this call. */
async function holderOf(workers: FeedsyncProcess[]): Promise<FeedsyncProcess> {
  const before = workers.map(pagesStoredBy);
  return waitFor('a worker to store a page', () => workers.find((worker, index) => pagesStoredBy(worker) > before[index]!), 30_000);
}

type RunRow = { status: string; pages: number; crashes: number };
const runRow = async (runId: string): Promise<RunRow | undefined> =>
  (await pool.query<RunRow>('select status, pages, crashes from sync_runs where id = $1', [runId]).catch(() => ({ rows: [] as RunRow[] }))).rows[0];

/** Waits until the run has stored `more` pages past where it is now; fails if it ended meanwhile (the chaos would come too late). */
async function pagesGoOn(runId: string, more: number, what: string): Promise<void> {
  const start = (await waitFor('the run row', () => runRow(runId), 30_000)).pages;
  const row = await waitFor(`${more} more pages after ${what}`, async () => {
    const current = await runRow(runId);
    return current && current.pages >= start + more && current;
  }, 60_000).catch(async (error: Error) => {
    // What each process was doing, for a failure seen only on a loaded machine.
    const { rows } = await pool.query('select status, pages, attempt, crashes, error_kind, error from sync_runs where id = $1', [runId]).catch(() => ({ rows: [] }));
    const tails = processes.map((process) => `--- pid ${process.pid}${process.child.exitCode === null && process.child.signalCode === null ? '' : ' (ended)'}:\n${process.output().slice(-2500)}`);
    throw new Error(`${error.message}\nrun: ${JSON.stringify(rows[0])}\n${tails.join('\n')}`);
  });
  expect(row.status, `the run ended before the chaos did (after ${what})`).toBe('running');
}

/** Count and hash of every stored record (kind, key, payload), in key order. */
async function recordsDigest(client: Pick<pg.Pool, 'query'>): Promise<{ count: string; hash: string }> {
  const { rows } = await client.query<{ count: string; hash: string }>(`select count(*) as count, md5(string_agg(kind || '/' || key || '=' || payload::text, ',' order by kind, key)) as hash from records`);
  return rows[0]!;
}

/** The same query run once, undisturbed, into a database of its own. */
async function cleanRunDigest(config: ConfigInput): Promise<{ count: string; hash: string }> {
  const database: TestDatabase = await createTestDatabase();
  const parsed = parseConfig(config, 'test', {});
  const query = queryOf(parsed, 'artists');
  const client = new SourceClient('music', query.source);
  try {
    const summary = await syncQuery(
      query,
      runIdentityOf(query, inProcessRunKey('artists', 0, randomUUID())),
      { store: openRunStore(database.db), client, gate: OPEN_GATE, logger: capturingLogger('info').logger },
    );
    expect(summary.status).toBe('succeeded');
    return await recordsDigest(database.pool);
  } finally {
    await client.close();
    await database.drop();
  }
}

describe('a long run under chaos', () => {
  it('survives five SIGKILLs of its worker, a Postgres crash restart and a Redis restart that loses its data: it ends succeeded, equal to a clean run, with one job notice and nothing left unfinished', async () => {
    // Slow pages while the chaos lasts (two requests in flight, so about 13 pages a second): a
    // loaded machine that is slow to see a page stored must not find the run already ended.
    simulator.setFaults('music', { latencyMs: 150 });
    const config = chaosConfig();
    const file = await writeConfig(config);
    const workers = [await startWorker(file), await startWorker(file)];
    const runId = await enqueueByCli('artists', file, { REDIS_URL: redis.url, DATABASE_URL: postgres.url });
    await pagesGoOn(runId, 3, 'the start');

    const killHolder = async (kill: number) => {
      const holder = await holderOf(workers);
      holder.kill('SIGKILL');
      await holder.exited;
      workers.splice(workers.indexOf(holder), 1, await startWorker(file));
      await pagesGoOn(runId, 3, `kill ${kill}`);
    };
    await killHolder(1);
    await killHolder(2);
    await holderOf(workers);
    await postgres.restart('immediate');
    await pagesGoOn(runId, 3, 'the Postgres restart');
    await killHolder(3);
    await holderOf(workers);
    await redis.stop();
    redis = await startRedisServer({ port: redis.port });
    await pagesGoOn(runId, 3, 'the Redis restart');
    // The holder's job went with Redis: after this kill only the reconciler can queue the run again.
    await killHolder(4);
    await killHolder(5);
    simulator.setFaults('music', { latencyMs: 0 });

    const finished = await waitFor('the run to end', async () => {
      const row = await runRow(runId);
      return row && row.status !== 'running' && row;
    }, 120_000);
    expect(finished).toMatchObject({ status: 'succeeded' });
    // Every kill counted, the two after Redis lost the run's job included (the row counts them, not the queue).
    expect(finished.crashes).toBeGreaterThanOrEqual(5);

    const { rows: envelopes } = await pool.query<{ seqs: number[] }>('select array_agg(page_seq order by page_seq) as seqs from envelopes where run_id = $1', [runId]);
    expect(envelopes[0]!.seqs).toEqual(envelopes[0]!.seqs.map((_, index) => index + 1));
    expect(envelopes[0]!.seqs).toHaveLength(finished.pages);
    expect(await recordsDigest(pool)).toEqual(await cleanRunDigest(config));

    const notices = await waitFor('the notice to be delivered', () => {
      const delivered = simulator.requests(simulator.webhookUuid).map((request) => JSON.parse(request.body) as { type: string; data: { tickId: string } });
      return delivered.length > 0 && delivered;
    }, 30_000);
    // Anything sent twice would have come by now: the outbox is settled.
    await waitFor('the outbox to settle', async () => (await pool.query(`select 1 from notices where state = 'pending'`)).rowCount === 0, 30_000);
    expect(simulator.requests(simulator.webhookUuid)).toHaveLength(1);
    // The job's tick of one run: its notice, posted once, when the run ended.
    const { rows: ticks } = await pool.query<{ tick_id: string }>('select tick_id from sync_runs where id = $1', [runId]);
    expect(notices[0]).toMatchObject({ type: 'job.succeeded', data: { tickId: ticks[0]!.tick_id, runs: { total: 1, succeeded: 1, failed: 0, skipped: 0 } } });

    const { rows: unfinished } = await pool.query<{ run_key: string; status: string }>(`select run_key, status from sync_runs where status <> 'succeeded'`);
    expect(unfinished).toEqual([]);
  }, 300_000);
});
