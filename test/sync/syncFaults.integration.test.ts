import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config/schema.js';
import { OPEN_GATE } from '../../src/http/RequestGate.js';
import { SourceClient } from '../../src/http/SourceClient.js';
import type { FaultKind } from '../../src/simulator/control/faults.js';
import { startSimulator, type Simulator } from '../../src/simulator/startSimulator.js';
import { openRunStore } from '../../src/storage/runStore.js';
import { completionNotice } from '../../src/notices/completionNotice.js';
import { syncQuery } from '../../src/sync/syncQuery.js';
import { capturingLogger, configFor, queryOf } from '../support/syncFixture.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';
import { runIdentityOf } from '../../src/sync/runIdentity.js';

let simulator: Simulator;
let database: TestDatabase;
let config: Config;
const clients: SourceClient[] = [];

beforeAll(async () => {
  simulator = await startSimulator({ seed: 3, music: { artists: 500, users: 5, playsPerUser: 50 }, chain: { initialHead: 500, blockIntervalMs: 0 } });
  database = await createTestDatabase();
  config = configFor(
    simulator,
    [{ name: 'artists', source: 'music', records: { path: 'results.artistmatches.artist', kind: 'artist' }, paging: { limit: 50 }, queries: [{ q: 'a', params: { method: 'artist.search' } }] }],
    { webhook: { baseUrl: simulator.webhookBaseUrl, uuid: simulator.webhookUuid, secret: `whsec_${Buffer.from('feedsync test secret 0123456789').toString('base64')}` } },
  );
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await simulator.close();
  await database.drop();
});
beforeEach(() => simulator.reset());

async function run(sourceConfig: Config = config, attempts?: { made: number; allowed: number }) {
  const query = queryOf(sourceConfig, 'artists');
  const client = new SourceClient('music', query.source);
  clients.push(client);
  const capture = capturingLogger();
  const retries: string[] = [];
  const summary = await syncQuery(
    query,
    runIdentityOf(query, `test/${randomUUID()}`),
    { store: openRunStore(database.db), client, gate: OPEN_GATE, logger: capture.logger, noticeFor: completionNotice, attempts, onRetry: (error) => retries.push(error.kind) },
  );
  return { summary, retries, lines: capture.lines };
}

describe('syncQuery under upstream faults', () => {
  const retried: [FaultKind, string][] = [
    ['serverError', 'temporary'],
    ['tooManyRequests', 'rate_limited'],
    ['reset', 'network'],
    ['hang', 'timeout'],
    ['malformedJson', 'malformed'],
    ['truncatedBody', 'network'],
    ['errorEnvelope', 'rate_limited'],
  ];

  for (const [fault, kind] of retried) {
    it(`retries a ${fault} fault (${kind}) and completes`, async () => {
      simulator.setFaults('music', { sequence: [fault] });
      const { summary, retries } = await run();
      expect(summary.status).toBe('succeeded');
      expect(retries).toEqual([kind]);
    }, 20_000);
  }

  it('honours Retry-After in its HTTP-date form', async () => {
    simulator.setFaults('music', { sequence: ['tooManyRequests'], retryAfter: { seconds: 1, form: 'httpDate' } });
    const started = Date.now();
    const { summary, retries } = await run();
    expect(summary.status).toBe('succeeded');
    expect(retries).toEqual(['rate_limited']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('gives up after the configured attempts and fails the run with the last error', async () => {
    simulator.setFaults('music', { shares: { serverError: 1 } });
    const { summary, retries } = await run();
    expect(summary.status).toBe('failed');
    expect(retries).toHaveLength(3);
    expect(summary.error?.message).toMatch(/^music: server error \(HTTP 5\d\d\)/);
  });

  it('fails at once, without retrying, when the key is refused', async () => {
    const badKey = configFor(
      simulator,
      [{ name: 'artists', source: 'music', records: { path: 'results.artistmatches.artist', kind: 'artist' }, queries: [{ q: 'a', params: { method: 'artist.search' } }] }],
      {},
    );
    badKey.sources.music!.auth = { type: 'bearer', value: 'wrong-key' };
    const { summary, retries } = await run(badKey);
    expect(summary.status).toBe('failed');
    expect(retries).toEqual([]);
    expect(summary.error?.message).toMatch(/music: the API key was refused \(HTTP 401\) upstream said: "Invalid API key"/i);
  });

  it('fails at once on a 400 naming the upstream message', async () => {
    const badMethod = configFor(simulator, [{ name: 'artists', source: 'music', records: { path: 'results.artistmatches.artist', kind: 'artist' }, queries: [{ q: 'a', params: { method: 'artist.nope' } }] }]);
    const { summary, retries } = await run(badMethod);
    expect(retries).toEqual([]);
    expect(summary.error?.message).toMatch(/HTTP 400.*upstream said/);
  });

  it('queues a failure notice in the same transaction as the failed status', async () => {
    simulator.setFaults('music', { shares: { serverError: 1 } });
    const { summary } = await run();
    const { rows } = await database.pool.query<{ status: string; type: string; body: string }>(
      `select r.status, n.type, n.body from sync_runs r join notices n on n.run_id = r.id where r.id = $1`,
      [summary.runId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'failed', type: 'sync.failed' });
    expect(JSON.parse(rows[0]!.body)).toMatchObject({ type: 'sync.failed', data: { runId: summary.runId, job: 'artists', error: { kind: 'temporary' } } });
  });

  it('records a failure with a queue attempt left as retrying, with no finish time and no notice yet', async () => {
    simulator.setFaults('music', { shares: { serverError: 1 } });
    const { summary, lines } = await run(config, { made: 0, allowed: 2 });
    expect(summary).toMatchObject({ status: 'failed', final: false });
    const { rows } = await database.pool.query<{ status: string; finished_at: Date | null; error_kind: string; notices: string }>(
      `select status, finished_at, error_kind, (select count(*) from notices n where n.run_id = r.id) as notices from sync_runs r where id = $1`,
      [summary.runId],
    );
    expect(rows[0]).toEqual({ status: 'retrying', finished_at: null, error_kind: 'temporary', notices: '0' });
    expect(lines.some((line) => line.includes('run attempt failed; it will be retried from its checkpoint'))).toBe(true);
  });

  it('keeps the API key out of every log line and every table', async () => {
    simulator.setFaults('music', { sequence: ['serverError', 'malformedJson'] });
    const { lines, summary } = await run();
    expect(summary.status).toBe('succeeded');
    expect(lines.length).toBeGreaterThan(3);
    expect(lines.join('')).not.toContain(simulator.apiKey);
    const tables = await database.pool.query<{ table_name: string }>(`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`);
    for (const { table_name } of tables.rows) {
      const dump = await database.pool.query<{ row: string }>(`select t::text as row from ${table_name} t`);
      expect(dump.rows.map((row) => row.row).join('\n'), table_name).not.toContain(simulator.apiKey);
    }
  });
});
