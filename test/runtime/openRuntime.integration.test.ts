import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import { openRuntime } from '../../src/runtime/openRuntime.js';
import { capturingLogger } from '../support/syncFixture.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const configWith = (kinds: Record<string, unknown>) =>
  parseConfig(
    {
      sources: { music: { baseUrl: 'http://127.0.0.1:1', auth: { type: 'none' }, path: '/2.0/' } },
      jobs: [{ name: 'artists', source: 'music', records: { path: 'artist', kind: 'artist' }, queries: [{ q: 'a' }] }],
      kinds,
      analytics: { schema: 'bi' },
    },
    'test config',
    {},
  );

describe('openRuntime', () => {
  it('makes the kinds’ views as it migrates, and warns of a kind no job stores', async () => {
    const { logger, lines } = capturingLogger('warn');
    const runtime = await openRuntime(configWith({ artist: { columns: { name: { path: 'name', type: 'text' } } }, album: {} }), { databaseUrl: database.url, logger });
    await runtime.close();
    const { rows } = await database.pool.query<{ name: string }>(`select table_name as name from information_schema.views where table_schema = 'bi' order by 1`);
    expect(rows.map((row) => row.name)).toEqual(['album', 'album_changes', 'album_history', 'artist', 'artist_changes', 'artist_history']);
    expect(lines.join('')).toContain('no job stores records of kind \\"album\\"');
  });

  it('makes no view when it does not migrate (read-only commands)', async () => {
    const runtime = await openRuntime(configWith({ track: {} }), { databaseUrl: database.url, logger: capturingLogger().logger, migrate: false });
    await runtime.close();
    expect((await database.pool.query(`select 1 from information_schema.views where table_name = 'track'`)).rowCount).toBe(0);
  });
});
