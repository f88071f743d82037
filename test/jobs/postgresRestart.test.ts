import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { parseConfig } from '../../src/config/loadConfig.js';
import { enqueueRuns } from '../../src/jobs/enqueueRuns.js';
import { WorkerProcess } from '../../src/runtime/WorkerProcess.js';
import { startPostgresServer, type PostgresServer } from '../../src/localstack/postgresServer.js';
import { startSimulator, type Simulator } from '../../src/simulator/startSimulator.js';
import { waitFor } from '../support/feedsyncProcess.js';
import { artistSearchTotal, capturingLogger, simulatorSources } from '../support/syncFixture.js';

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
    const feedsync = await WorkerProcess.open({ config, redisUrl: inject('redisUrl'), databaseUrl: postgres.url, logger: capturingLogger().logger, roles: { worker: true, scheduler: false } });
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
});
