import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import { enqueueRuns, waitForRuns } from '../../src/jobs/enqueueRuns.js';
import { openRedis } from '../../src/redis/openRedis.js';
import { WorkerProcess } from '../../src/runtime/WorkerProcess.js';
import { startSimulator } from '../../src/simulator/startSimulator.js';
import { capturingLogger, simulatorSources } from '../support/syncFixture.js';
import { createTestDatabase } from '../support/testDatabase.js';

/** A running worker's /metrics answer, and how to stop what answered it. */
export interface ExportedMetrics {
  text: string;
  close(): Promise<void>;
}

/**
 * Starts a worker as `feedsync worker` runs one (its HTTP port on, a webhook, a rate-limited source,
 * a scheduled job), runs one small job to its end so that its counters have samples, and reads
 * /metrics: what a Prometheus scraping a live worker finds.
 */
export async function exportingWorkerMetrics(): Promise<ExportedMetrics> {
  const simulator = await startSimulator({ seed: 9, music: { artists: 60, users: 2, playsPerUser: 10 }, chain: { initialHead: 100, blockIntervalMs: 0 } });
  const database = await createTestDatabase();
  const sources = simulatorSources(simulator);
  const config = parseConfig(
    {
      sources: { ...sources, music: { ...sources.music, rateLimit: { max: 50, durationMs: 1000 } } },
      jobs: [
        {
          name: 'artists',
          source: 'music',
          schedule: { cron: '0 3 * * *' },
          records: { path: 'results.artistmatches.artist', kind: 'artist' },
          paging: { limit: 25 },
          queries: [{ q: 'a', params: { method: 'artist.search' } }],
        },
      ],
      webhook: { baseUrl: simulator.webhookBaseUrl, uuid: simulator.webhookUuid },
      worker: { prefix: `test-${randomBytes(4).toString('hex')}`, httpPort: 0 },
    },
    'test',
    {},
  );
  const feedsync = await WorkerProcess.open({ config, redis: inject('redisUrl'), databaseUrl: database.url, logger: capturingLogger().logger, roles: { worker: true, scheduler: false }, http: true });
  const close = async () => {
    await feedsync.close();
    await simulator.close();
    await database.drop();
  };
  try {
    await feedsync.start();
    const { runs } = await enqueueRuns(config, feedsync.runtime.store, feedsync.queues, 'artists');
    const connection = openRedis(inject('redisUrl'), 'worker');
    await waitForRuns(connection, feedsync.queues, feedsync.runtime.store.claims, runs).finally(() => connection.disconnect());
    const text = await (await fetch(`${feedsync.httpUrl!}/metrics`)).text();
    return { text, close };
  } catch (error) {
    await close();
    throw error;
  }
}
