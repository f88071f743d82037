import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import { enqueueRuns } from '../../src/jobs/enqueueRuns.js';
import { WorkerProcess } from '../../src/runtime/WorkerProcess.js';
import { startPostgresServer, type PostgresServer } from '../../src/localstack/postgresServer.js';
import { startSimulator, type Simulator } from '../../src/simulator/startSimulator.js';
import { waitFor } from '../support/feedsyncProcess.js';
import { artistSearchTotal, capturingLogger, simulatorSources } from '../support/syncFixture.js';
import { hearUncaughtErrors } from '../support/uncaughtErrors.js';

let simulator: Simulator;
let postgres: PostgresServer;

beforeAll(async () => {
  simulator = await startSimulator({ seed: 21, music: { artists: 1500, users: 2, playsPerUser: 10 }, chain: { initialHead: 100, blockIntervalMs: 0 }, faults: { music: { latencyMs: 30 } } });
  postgres = await startPostgresServer();
});
afterAll(async () => {
  await simulator.close();
  await postgres.stop();
});

describe('a worker whose Postgres restarts mid-run', () => {
  it('waits the restart out: the run ends succeeded in its first and only attempt, with every record stored once', async () => {
    const config = parseConfig(
      {
        sources: simulatorSources(simulator),
        jobs: [{ name: 'artists', source: 'music', records: { path: 'results.artistmatches.artist', kind: 'artist' }, paging: { limit: 20 }, queries: [{ q: 'a', params: { method: 'artist.search' } }] }],
        // One attempt: an outage that used it would fail the run.
        worker: { prefix: `test-${randomBytes(4).toString('hex')}`, attempts: 1, backoffMs: 200 },
      },
      'test',
      {},
    );
    const feedsync = await WorkerProcess.open({ config, redis: inject('redisUrl'), databaseUrl: postgres.url, logger: capturingLogger().logger, roles: { worker: true, scheduler: false } });
    await feedsync.start();
    try {
      const pool = feedsync.runtime.storage.pool;
      const {
        runs: [run],
      } = await enqueueRuns(config, feedsync.runtime.store, feedsync.queues, 'artists');
      const pages = async () => Number((await pool.query<{ pages: number }>('select pages from sync_runs where id = $1', [run!.runId]).catch(() => ({ rows: [] }))).rows[0]?.pages ?? 0);
      await waitFor('a few pages', async () => (await pages()) >= 3);
      await postgres.restart();
      const final = await waitFor('the run to end', async () => {
        const { rows } = await pool.query<{ status: string; attempt: number }>('select status, attempt from sync_runs where id = $1', [run!.runId]).catch(() => ({ rows: [] as { status: string; attempt: number }[] }));
        return rows[0]?.status === 'succeeded' && rows[0];
      }, 40_000);
      expect(final.attempt).toBe(1);
      const total = await artistSearchTotal(simulator, 'a');
      const { rows } = await pool.query<{ n: string; seqs: number[] }>(`select (select count(*) from records) as n, array_agg(page_seq order by page_seq) as seqs from envelopes where run_id = $1`, [run!.runId]);
      expect(Number(rows[0]!.n)).toBe(total);
      expect(rows[0]!.seqs).toEqual(rows[0]!.seqs.map((_, i) => i + 1));
      expect((await pool.query(`select 1 from sync_runs where status = 'running'`)).rowCount).toBe(0);
    } finally {
      await feedsync.close();
    }
  }, 60_000);

  it('waits a restart out as many short runs end at once, their finishes in transactions: each run ends succeeded in its first attempt with its notice, and nothing is thrown unheard', async () => {
    const uncaught = hearUncaughtErrors();
    const blocks = 100;
    const config = parseConfig(
      {
        sources: simulatorSources(simulator),
        jobs: [{ name: 'blocks', source: 'explorer', records: { path: 'result', key: 'number', kind: 'block' }, queries: Array.from({ length: blocks }, (_, n) => ({ q: String(n + 1), params: { module: 'block', action: 'getblock' } })) }],
        webhook: { baseUrl: simulator.webhookBaseUrl, uuid: randomUUID(), notices: 'run' },
        worker: { prefix: `test-${randomBytes(4).toString('hex')}`, attempts: 1, backoffMs: 200, concurrency: 16 },
      },
      'test',
      {},
    );
    const feedsync = await WorkerProcess.open({ config, redis: inject('redisUrl'), databaseUrl: postgres.url, logger: capturingLogger().logger, roles: { worker: true, scheduler: false } });
    await feedsync.start();
    try {
      const pool = feedsync.runtime.storage.pool;
      const { runs } = await enqueueRuns(config, feedsync.runtime.store, feedsync.queues, 'blocks');
      const ids = runs.map((run) => run.runId);
      const ended = async () =>
        (await pool.query<{ status: string; attempt: number; delivered: boolean }>('select r.status, r.attempt, n.delivered_at is not null as delivered from sync_runs r left join notices n on n.run_id = r.id where r.id = any($1::uuid[]) and r.finished_at is not null', [ids]).catch(() => ({ rows: [] as { status: string; attempt: number; delivered: boolean }[] }))).rows;
      await waitFor('some runs ended', async () => (await ended()).length >= 5);
      const endedBefore = (await ended()).length;
      await postgres.restart();
      const all = await waitFor('every run ended with its notice delivered', async () => {
        const rows = await ended();
        return rows.length === blocks && rows.every((row) => row.delivered) && rows;
      }, 60_000);
      expect(all.filter((row) => row.status !== 'succeeded' || row.attempt !== 1)).toEqual([]);
      // The restart came while runs were still ending.
      expect(endedBefore).toBeLessThan(blocks);
      expect((await pool.query('select 1 from sync_runs where id = any($1::uuid[]) and finished_at > pg_postmaster_start_time()', [ids])).rowCount).toBeGreaterThan(0);
      expect(uncaught.errors).toEqual([]);
    } finally {
      uncaught.stop();
      await feedsync.close();
    }
  }, 90_000);
});
