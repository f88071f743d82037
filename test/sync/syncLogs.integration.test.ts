import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPEN_GATE } from '../../src/http/RequestGate.js';
import { SourceClient } from '../../src/http/SourceClient.js';
import { startSimulator, type Simulator } from '../../src/simulator/startSimulator.js';
import { openRunStore } from '../../src/storage/runStore.js';
import { syncQuery } from '../../src/sync/syncQuery.js';
import { capturingLogger, configFor, queryOf } from '../support/syncFixture.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';
import { runIdentityOf } from '../../src/sync/runIdentity.js';

let simulator: Simulator;
let database: TestDatabase;
beforeAll(async () => {
  simulator = await startSimulator({ seed: 4, music: { artists: 300, users: 2, playsPerUser: 10 }, chain: { initialHead: 100, blockIntervalMs: 0 } });
  database = await createTestDatabase();
});
afterAll(async () => {
  await simulator.close();
  await database.drop();
});

describe('the log of a run', () => {
  it('carries run id, job, source, query index and attempt on every line, a debug line per page and one info summary', async () => {
    const config = configFor(simulator, [{ name: 'artists', source: 'music', records: { path: 'results.artistmatches.artist', kind: 'artist' }, paging: { limit: 20 }, queries: [{ q: 'a', params: { method: 'artist.search' } }] }]);
    const query = queryOf(config, 'artists');
    const client = new SourceClient('music', query.source);
    const { logger, lines } = capturingLogger('debug');
    simulator.setFaults('music', { sequence: ['serverError'] });
    const summary = await syncQuery(
      query,
      runIdentityOf(query, `test/${randomUUID()}`),
      { store: openRunStore(database.db), client, gate: OPEN_GATE, logger },
    );
    await client.close();
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const entry of entries) expect(entry).toMatchObject({ runId: summary.runId, job: 'artists', source: 'music', queryIndex: 0, attempt: 1 });
    const pageLines = entries.filter((entry) => entry.msg === 'page stored');
    expect(pageLines.map((entry) => entry.page)).toEqual(Array.from({ length: summary.pages }, (_, i) => i + 1));
    expect(pageLines.every((entry) => entry.level === 20)).toBe(true);
    expect(entries.filter((entry) => entry.level === 30)).toHaveLength(1);
    expect(entries.find((entry) => entry.msg === 'retrying request')).toMatchObject({ page: 1, retry: 1 });
    expect(lines.join('')).not.toContain(simulator.apiKey);
  });
});
