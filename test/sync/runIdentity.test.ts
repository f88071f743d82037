import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import { findJob, resolveQuery } from '../../src/config/jobs/resolveQuery.js';
import { runIdentityOf } from '../../src/sync/runIdentity.js';
import { queryOf } from '../support/syncFixture.js';

const config = parseConfig(
  {
    sources: { music: { baseUrl: 'http://127.0.0.1:1', apiKey: 'music-key-0123456789', path: '/2.0/', params: { format: 'json' } } },
    jobs: [
      { name: 'artists', source: 'music', records: { path: 'artists', kind: 'artist' }, queries: [{ q: 'cher', params: { method: 'artist.search' } }] },
      { name: 'listens', source: 'music', records: { path: 'tracks', kind: 'listen' }, queries: [{ params: { method: 'user.getRecentTracks' }, forEach: { values: ['us-0001'], param: 'user' } }] },
    ],
  },
  'test',
  {},
);

describe('runIdentityOf', () => {
  it('records the query as sent, with the parameters every level gives it, and never the API key', () => {
    const identity = runIdentityOf(queryOf(config, 'artists'), 'manual/artists/0/x');
    expect(identity).toMatchObject({ runKey: 'manual/artists/0/x', job: 'artists', source: 'music', queryIndex: 0, query: { q: 'cher', params: { format: 'json', method: 'artist.search' } } });
    expect(JSON.stringify(identity)).not.toContain('music-key-0123456789');
  });

  it('carries a fan-out run’s value and what its caller knows of the run', () => {
    const tickId = '5b6f7a8c-1d2e-4f3a-9b8c-7d6e5f4a3b2c';
    const identity = runIdentityOf(resolveQuery(config, findJob(config, 'listens'), 0, 'us-0001'), 'tick/listens/0/us-0001', { tickId, scheduledFor: new Date('2026-03-01T00:00:00Z') });
    expect(identity).toMatchObject({ value: 'us-0001', tickId, scheduledFor: new Date('2026-03-01T00:00:00Z'), query: { q: null, params: { method: 'user.getRecentTracks', user: 'us-0001' } } });
  });
});
