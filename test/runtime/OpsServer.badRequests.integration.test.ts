import { randomBytes } from 'node:crypto';
import type { RedisClient } from '../../src/redis/RedisTarget.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import { openQueues, type Queues } from '../../src/jobs/queues.js';
import { openRedis } from '../../src/redis/openRedis.js';
import { FeedsyncMetrics } from '../../src/observability/FeedsyncMetrics.js';
import { openRuntime, type Runtime } from '../../src/runtime/openRuntime.js';
import { OpsServer } from '../../src/runtime/OpsServer.js';
import { rawRequest } from '../support/rawRequest.js';
import { capturingLogger } from '../support/syncFixture.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';
import { OPS_USER, opsRequestRows } from './opsRequestRows.js';

let database: TestDatabase;
let redis: RedisClient;
let queues: Queues;
let runtime: Runtime;
let server: OpsServer;
let base: string;

beforeAll(async () => {
  database = await createTestDatabase();
  const config = parseConfig(
    {
      sources: { music: { baseUrl: 'http://127.0.0.1:1', auth: { type: 'none' }, path: '/' } },
      jobs: [{ name: 'artists', source: 'music', records: { path: 'items', kind: 'artist' }, queries: [{ q: 'a' }] }],
      worker: { prefix: `test-${randomBytes(4).toString('hex')}`, dashboard: true },
    },
    'test',
    {},
  );
  redis = openRedis(inject('redisUrl'), 'worker');
  queues = openQueues(redis, config.worker);
  runtime = await openRuntime(config, { databaseUrl: database.url, logger: capturingLogger().logger, migrate: false });
  server = new OpsServer({ runtime, queues, redis, metrics: new FeedsyncMetrics(), dashboardAuth: OPS_USER });
  base = await server.listen(0, '127.0.0.1');
});

afterAll(async () => {
  await server.close();
  await queues.close();
  redis.disconnect();
  await runtime.close();
  await database.drop();
});

describe("requests to a worker's HTTP port", () => {
  it.each(opsRequestRows)('$what: answered $status', async (row) => {
    const { status, body } = await rawRequest(base, row.path, row.method ?? 'GET', row.authorization);
    expect(status, body).toBe(row.status);
    expect(body).toMatch(row.says);
  });
});
