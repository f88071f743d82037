/** A config tree, loosely typed so that a test can break any part of it. */
export interface ConfigTree {
  sources: { music: Record<string, unknown> } & Record<string, Record<string, unknown>>;
  jobs: (Record<string, unknown> & { schedule: Record<string, unknown> })[];
  webhook: Record<string, unknown>;
  worker: Record<string, unknown>;
}

/** A config that passes (with MUSIC_API_KEY set): config tests change one thing in it. */
export const validTree = (): ConfigTree => ({
  sources: { music: { baseUrl: 'http://127.0.0.1:1', apiKey: '${MUSIC_API_KEY}', path: '/2.0/' } },
  jobs: [
    {
      name: 'artists',
      source: 'music',
      schedule: { cron: '0 2 * * *' },
      records: { path: 'results.artistmatches.artist', kind: 'artist' },
      queries: [{ q: 'the', params: { method: 'artist.search' } }],
    },
  ],
  webhook: { baseUrl: 'http://127.0.0.1:2', uuid: '3f0c8a4e-6d3b-4a8e-9b1e-2a7c5d9e0f11' },
  worker: {},
});
