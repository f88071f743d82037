import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import type { ConfigInput } from '../../src/config/schema.js';
import { enqueueRuns } from '../../src/jobs/enqueueRuns.js';
import { openQueues } from '../../src/jobs/queues.js';
import { openRedis } from '../../src/redis/openRedis.js';
import type { TickNotice } from '../../src/notices/tickNotice.js';
import { startSimulator, type Simulator } from '../../src/simulator/startSimulator.js';
import { openRunStore } from '../../src/storage/runStore.js';
import { startedFeedsync, waitFor, writeConfig, type FeedsyncProcess } from '../support/feedsyncProcess.js';
import { simulatorSources } from '../support/syncFixture.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';

const VALUES = 2_000;

let simulator: Simulator;
let database: TestDatabase;
const processes: FeedsyncProcess[] = [];

beforeAll(async () => {
  simulator = await startSimulator({ seed: 21, music: { artists: 50, users: 2, playsPerUser: 5 }, chain: { initialHead: VALUES + 10, blockIntervalMs: 0 } });
  database = await createTestDatabase();
});
afterAll(async () => {
  for (const process of processes) {
    if (process.child.exitCode === null && process.child.signalCode === null) process.kill('SIGKILL');
    await process.exited;
  }
  await simulator.close();
  await database.drop();
});

describe('a fan-out tick under crashes', () => {
  it(`ends a tick of ${VALUES} values with one run per value and exactly one job notice, though its workers are SIGKILLed mid-tick`, async () => {
    const tree: ConfigInput = {
      sources: simulatorSources(simulator),
      jobs: [
        {
          name: 'blocks',
          source: 'explorer',
          records: { path: 'result', key: 'number', kind: 'block' },
          queries: [{ params: { module: 'block', action: 'getblock' }, forEach: { values: Array.from({ length: VALUES }, (_, n) => String(n + 1)) } }],
        },
      ],
      webhook: { baseUrl: simulator.webhookBaseUrl, uuid: randomUUID(), retryScheduleMs: [200] },
      worker: { prefix: `test-${randomBytes(4).toString('hex')}`, httpPort: 0, concurrency: 8, attempts: 3, backoffMs: 100, lockDurationMs: 2000, stalledIntervalMs: 1000, maxCrashes: 5 },
    };
    const file = await writeConfig(tree);
    const env = { REDIS_URL: inject('redisUrl'), DATABASE_URL: database.url, LOG_LEVEL: 'info' };
    const start = async () => {
      const process = await startedFeedsync(['worker', '--config', file], env);
      processes.push(process);
      return process;
    };
    const workers = [await start(), await start()];

    const config = parseConfig(tree, 'test', {});
    const connection = openRedis(inject('redisUrl'), 'producer');
    const queues = openQueues(connection, config.worker);
    const { tick, runs } = await enqueueRuns(config, openRunStore(database.db), queues, 'blocks').finally(async () => {
      await queues.close();
      connection.disconnect();
    });
    expect(runs).toHaveLength(VALUES);

    const done = async () => (await database.pool.query<{ n: number }>(`select runs_done as n from job_ticks where id = $1`, [tick.id])).rows[0]!.n;
    // Three kills, each of a worker in the middle of its runs, each replaced.
    for (const at of [300, 800, 1300]) {
      await waitFor(`${at} runs done`, async () => (await done()) >= at, 60_000);
      const victim = workers.shift()!;
      victim.kill('SIGKILL');
      await victim.exited;
      workers.push(await start());
    }

    const notices = () =>
      simulator
        .requests(config.webhook!.uuid)
        .map((request) => JSON.parse(request.body) as TickNotice)
        .filter((notice) => notice.data.tickId === tick.id);
    const [notice] = await waitFor('the tick notice', () => notices().length > 0 && notices(), 120_000);
    await waitFor('the outbox to settle', async () => (await database.pool.query(`select 1 from notices where state = 'pending'`)).rowCount === 0, 30_000);
    expect(notices()).toHaveLength(1);
    expect(notice).toMatchObject({ type: 'job.succeeded', data: { runs: { total: VALUES, succeeded: VALUES, failed: 0, skipped: 0 }, records: { new: VALUES } } });

    const { rows } = await database.pool.query<{ runs: number; values: number; succeeded: number; records: number }>(
      `select count(*)::int as runs, count(distinct fan_value)::int as values, count(*) filter (where status = 'succeeded')::int as succeeded,
          (select count(*)::int from records where kind = 'block') as records
        from sync_runs where tick_id = $1`,
      [tick.id],
    );
    expect(rows[0]).toEqual({ runs: VALUES, values: VALUES, succeeded: VALUES, records: VALUES });
  }, 300_000);
});
