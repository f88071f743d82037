import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/loadConfig.js';
import { tickNotice } from '../../src/notices/tickNotice.js';
import { openRunStore } from '../../src/storage/RunStore.js';
import { runJobNow } from '../../src/sync/runJobNow.js';
import { SourceRegistry } from '../../src/sync/SourceRegistry.js';
import { capturingLogger } from '../support/syncFixture.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

describe('runJobNow', () => {
  it('ends the runs it never started as failed when interrupted, so that its tick ends with its notice', async () => {
    const config = parseConfig(
      {
        sources: { music: { baseUrl: 'http://127.0.0.1:9', apiKey: 'k-music-0123', path: '/2.0/' } },
        jobs: [{ name: 'users', source: 'music', records: { path: 'items', kind: 'listen' }, queries: [{ params: { method: 'user.getRecentTracks' }, forEach: { values: ['us-1', 'us-2'] } }] }],
      },
      'test',
      {},
    );
    const sources = new SourceRegistry(config);
    const interrupted = new AbortController();
    interrupted.abort();
    try {
      const { tick, summaries } = await runJobNow(config, 'users', {}, { store: openRunStore(database.db, { tickNoticeFor: tickNotice }), sources, logger: capturingLogger().logger, signal: interrupted.signal, resumable: false });
      expect(summaries).toEqual([]);
      const { rows: runs } = await database.pool.query<{ status: string; error: string }>('select status, error from sync_runs where tick_id = $1', [tick.id]);
      expect(runs).toEqual([
        { status: 'failed', error: 'interrupted before the run started' },
        { status: 'failed', error: 'interrupted before the run started' },
      ]);
      const { rows: notices } = await database.pool.query<{ type: string }>('select n.type from notices n join job_ticks t on t.id = n.tick_id where t.id = $1 and t.status = $2', [tick.id, 'failed']);
      expect(notices).toEqual([{ type: 'job.failed' }]);
    } finally {
      await sources.close();
    }
  });
});
