import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import { enqueueRuns } from '../../src/jobs/enqueueRuns.js';
import { AbandonedRuns } from '../../src/jobs/AbandonedRuns.js';
import { openQueues } from '../../src/jobs/queues.js';
import { RunReconciler } from '../../src/jobs/RunReconciler.js';
import { completionNotice } from '../../src/notices/completionNotice.js';
import { startRedisServer } from '../../src/localstack/redisServer.js';
import { openRedis } from '../../src/redis/openRedis.js';
import { openRunStore } from '../../src/storage/runStore.js';
import { capturingLogger, simulatorSources } from '../support/syncFixture.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

describe('launchTick', () => {
  it('leaves the runs queued in Postgres, saying so, when Redis refuses their queue jobs after the tick is committed; a reconciler queues them once Redis takes them', async () => {
    const config = parseConfig(
      {
        sources: simulatorSources({ musicBaseUrl: 'http://127.0.0.1:1', explorerBaseUrl: 'http://127.0.0.1:1', apiKey: 'unused-key' }),
        jobs: [{ name: 'artists', source: 'music', records: { path: 'results.artistmatches.artist', kind: 'artist' }, queries: [{ q: 'a', params: { method: 'artist.search' } }, { q: 'b', params: { method: 'artist.search' } }] }],
        worker: { prefix: `test-${randomBytes(4).toString('hex')}` },
      },
      'test',
      {},
    );
    // A Redis that answered once, then went away: the refusal comes after the Postgres write.
    const redis = await startRedisServer();
    const connection = openRedis(redis.url, 'producer');
    const queues = openQueues(connection, config.worker);
    await queues.sync.waitUntilReady();
    await redis.stop();
    const workingRedis = openRedis(inject('redisUrl'), 'worker');
    const working = openQueues(workingRedis, config.worker);
    try {
      const error = await enqueueRuns(config, openRunStore(database.db), queues, 'artists').catch((caught: unknown) => caught as Error);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(/^Redis refused the queue jobs of tick \S+ of job "artists" \(.+\); its runs wait in Postgres as queued, and a worker's reconciler queues them/);
      const { rows } = await database.pool.query<{ run_key: string; status: string }>('select run_key, status from sync_runs order by query_index');
      expect(rows.map((row) => row.status)).toEqual(['queued', 'queued']);
      // A worker's reconciler, on a Redis that answers, finds them without queue jobs.
      const store = openRunStore(database.db);
      const logger = capturingLogger().logger;
      const abandoned = new AbandonedRuns({ store, logger, metrics: undefined, noticeFor: completionNotice, requestDrain: () => Promise.resolve() });
      const reconciler = new RunReconciler({ config, store, logger }, working, workingRedis, abandoned, { intervalMs: 0, idleForMs: 0, changedWithinMs: 86_400_000 });
      expect((await reconciler.sweep()).requeued.sort()).toEqual(rows.map((row) => row.run_key).sort());
    } finally {
      await Promise.all([queues.close().catch(() => undefined), working.close()]);
      connection.disconnect();
      workingRedis.disconnect();
    }
  });
});
