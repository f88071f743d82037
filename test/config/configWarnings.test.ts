import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAnalyticsSettings } from '../../src/config/loading/analyticsSettings.js';
import { configWarnings, producedKinds } from '../../src/config/configWarnings.js';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import { validTree } from '../support/configTrees.js';
import { scratchDir } from '../support/scratchDir.js';

describe('config warnings', () => {
  it('warn of a kind in kinds that no job stores, naming it and the kinds stored', () => {
    const config = parseConfig({ ...validTree(), kinds: { artist: {}, albm: {} } }, 'test config', { MUSIC_API_KEY: 'k' });
    expect(configWarnings(config, producedKinds(config.jobs))).toEqual([{ path: 'kinds.albm', message: 'no job stores records of kind "albm" (stored kinds: artist); its view will stay empty' }]);
  });

  it('warn of a credential put in params, with its path', () => {
    const tree = validTree();
    const config = parseConfig({ ...tree, jobs: [{ ...tree.jobs[0]!, params: { apikey: 'k-0123456789' } }] }, 'test config', { MUSIC_API_KEY: 'k' });
    expect(configWarnings(config, producedKinds(config.jobs)).map((warning) => warning.path)).toEqual(['jobs[0].params.apikey']);
  });

  it('warn of a kind of one source keyed two ways, naming both keys and their queries', () => {
    const tree = validTree();
    const job = tree.jobs[0]!;
    const config = parseConfig({ ...tree, jobs: [{ ...job, queries: [{ q: 'a' }, { q: 'b', records: { key: ['name', 'mbid'] } }] }] }, 'test config', { MUSIC_API_KEY: 'k' });
    expect(configWarnings(config, producedKinds(config.jobs))).toEqual([
      {
        path: 'jobs: kind "artist" of source "music"',
        message: 'is keyed by ["id"] (jobs[0].queries[0]) and by ["name","mbid"] (jobs[0].queries[1]): records keyed one way can take the keys of records keyed the other; give each key a kind of its own',
      },
    ]);
  });

  it('take a kind keyed one way by several queries as it is', () => {
    const tree = validTree();
    const config = parseConfig({ ...tree, jobs: [{ ...tree.jobs[0]!, queries: [{ q: 'a' }, { q: 'b' }] }] }, 'test config', { MUSIC_API_KEY: 'k' });
    expect(configWarnings(config, producedKinds(config.jobs))).toEqual([]);
  });

  it('take a kind set on the job or on the query as stored', () => {
    expect(producedKinds([{ records: { kind: 'a' }, queries: [{}, { records: { kind: 'b' } }] }])).toEqual(new Set(['a', 'b']));
  });
});

describe('loadAnalyticsSettings', () => {
  it('reads kinds and analytics without the upstreams’ variables, with the warnings', async () => {
    const file = join(await scratchDir('analytics-settings'), 'feedsync.yaml');
    const tree = { ...validTree(), kinds: { artist: { columns: { plays: { path: 'playcount', type: 'bigint' } } }, tag: {} }, analytics: { schema: 'bi' } };
    await writeFile(file, JSON.stringify(tree));
    const settings = await loadAnalyticsSettings(file, {});
    expect(settings.analytics).toEqual({ schema: 'bi' });
    expect(settings.kinds.artist!.columns.plays).toEqual({ path: ['playcount'], type: 'bigint' });
    expect(settings.warnings.map((warning) => warning.path)).toEqual(['kinds.tag']);
  });

  it('refuses a kinds section with an unknown type, naming the path', async () => {
    const file = join(await scratchDir('analytics-settings'), 'feedsync.yaml');
    await writeFile(file, JSON.stringify({ kinds: { artist: { columns: { plays: { path: 'playcount', type: 'long' } } } } }));
    await expect(loadAnalyticsSettings(file, {})).rejects.toThrow(/kinds\.artist\.columns\.plays\.type: "long" is not a column type/);
  });
});
