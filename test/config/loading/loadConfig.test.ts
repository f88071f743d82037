import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/ConfigError.js';
import { loadConfig, parseConfig } from '../../../src/config/loading/loadConfig.js';
import { resolveQuery } from '../../../src/config/jobs/resolveQuery.js';
import { validTree } from '../../support/configTrees.js';
import { scratchDir } from '../../support/scratchDir.js';


function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map((p) => `${p.path}: ${p.message}`);
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('parseConfig', () => {
  it('fills defaults and interpolates secrets from the environment', () => {
    const config = parseConfig(validTree(), 'test.yaml', { MUSIC_API_KEY: 'k-123' });
    expect(config.sources.music?.auth).toEqual({ type: 'bearer', value: 'k-123' });
    expect(config.sources.music?.paging).toMatchObject({ style: 'page', limit: 50, pageParam: 'page' });
    expect(config.sources.music?.retry.attempts).toBe(5);
    expect(config.jobs[0]?.schedule?.timezone).toBe('UTC');
  });

  it('reads a forEach list from one environment variable of comma-separated values', () => {
    const tree = validTree();
    (tree.jobs[0]!.queries as Record<string, unknown>[])[0] = { params: { method: 'user.getRecentTracks' }, forEach: { values: '${USERS}' } };
    const config = parseConfig(tree, 'test.yaml', { MUSIC_API_KEY: 'k-123', USERS: 'us-0001, us-0002,,us-0003 ' });
    expect(config.jobs[0]!.queries[0]!.forEach?.values).toEqual(['us-0001', 'us-0002', 'us-0003']);
    expect(config.webhook?.notices).toBe('job');
  });

  it('names the path of a string whose environment variable is unset', () => {
    expect(problemsOf(() => parseConfig(validTree(), 'test.yaml', {}))).toContain('sources.music.apiKey: environment variable MUSIC_API_KEY is not set');
  });

  it('uses ${NAME:-default} when the variable is unset', () => {
    const tree = validTree();
    tree.sources.music.baseUrl = '${MUSIC_BASE_URL:-http://127.0.0.1:9}';
    expect(parseConfig(tree, 'test.yaml', { MUSIC_API_KEY: 'k' }).sources.music?.baseUrl).toBe('http://127.0.0.1:9');
  });

  it('reports every problem at once, each with its path', () => {
    const tree = validTree();
    const job = tree.jobs[0]!;
    job.schedule.cron = '61 * * * *';
    job.source = 'nope';
    tree.webhook.uuid = 'not-a-uuid';
    tree.sources.music.paging = { limit: 0 };
    const problems = problemsOf(() => parseConfig(tree, 'test.yaml', { MUSIC_API_KEY: 'k' }));
    expect(problems).toEqual(
      expect.arrayContaining([
        'jobs[0].schedule.cron: "61 * * * *" is not a valid cron expression',
        'jobs[0].source: "nope" is not a configured source (have: music)',
        'webhook.uuid: must be a UUID',
        expect.stringMatching(/^sources\.music\.paging\.limit: /),
      ]),
    );
  });

  it('requires a record path and kind on each query, from the job or the query', () => {
    const tree = validTree();
    delete tree.jobs[0]!.records;
    const problems = problemsOf(() => parseConfig(tree, 'test.yaml', { MUSIC_API_KEY: 'k' }));
    expect(problems).toContain('jobs[0].queries[0].records.path: is required (set it on the query or on the job)');
  });

  it('keeps source paging settings that a job override leaves out', () => {
    const tree = validTree();
    tree.sources.music.paging = { style: 'offset', limit: 1000 };
    tree.jobs[0]!.paging = { maxPages: 5 };
    const config = parseConfig(tree, 'test.yaml', { MUSIC_API_KEY: 'k' });
    expect(resolveQuery(config, config.jobs[0]!, 0).paging).toMatchObject({ style: 'offset', limit: 1000, maxPages: 5 });
  });

  it('keeps the job record key when a query overrides only the path', () => {
    const tree = validTree();
    tree.jobs[0]!.records = { path: 'x', key: 'hash', kind: 'artist' };
    tree.jobs[0]!.queries = [{ q: 'a', records: { path: 'y' } }];
    const config = parseConfig(tree, 'test.yaml', { MUSIC_API_KEY: 'k' });
    expect(resolveQuery(config, config.jobs[0]!, 0).records).toEqual({ path: 'y', key: 'hash', kind: 'artist', onInvalid: 'fail' });
  });

  it('applies the documented default records.onInvalid: fail when neither job nor query sets it', () => {
    const config = parseConfig(validTree(), 'test.yaml', { MUSIC_API_KEY: 'k' });
    expect(resolveQuery(config, config.jobs[0]!, 0).records.onInvalid).toBe('fail');
  });

  it("takes a query's records.onInvalid over its job's", () => {
    const tree = validTree();
    tree.jobs[0]!.records = { path: 'x', kind: 'artist', onInvalid: 'fail' };
    tree.jobs[0]!.queries = [{ q: 'a', records: { onInvalid: 'skip' } }];
    const config = parseConfig(tree, 'test.yaml', { MUSIC_API_KEY: 'k' });
    expect(resolveQuery(config, config.jobs[0]!, 0).records.onInvalid).toBe('skip');
  });

  it('takes worker.httpHost and httpPort from FEEDSYNC_HTTP_HOST and FEEDSYNC_HTTP_PORT when the file leaves them out', () => {
    const config = parseConfig(validTree(), 'test.yaml', { MUSIC_API_KEY: 'k', FEEDSYNC_HTTP_HOST: '0.0.0.0', FEEDSYNC_HTTP_PORT: '9500' });
    expect(config.worker).toMatchObject({ httpHost: '0.0.0.0', httpPort: 9500 });
  });

  it('keeps worker.httpHost as the file sets it, whatever FEEDSYNC_HTTP_HOST says', () => {
    const tree = { ...validTree(), worker: { httpHost: '127.0.0.2' } };
    expect(parseConfig(tree, 'test.yaml', { MUSIC_API_KEY: 'k', FEEDSYNC_HTTP_HOST: '0.0.0.0' }).worker.httpHost).toBe('127.0.0.2');
  });

  it('takes FEEDSYNC_HTTP_HOST and FEEDSYNC_HTTP_PORT set but empty as unset: loopback and the default port, not every interface', () => {
    const config = parseConfig(validTree(), 'test.yaml', { MUSIC_API_KEY: 'k', FEEDSYNC_HTTP_HOST: '', FEEDSYNC_HTTP_PORT: '' });
    expect(config.worker).toMatchObject({ httpHost: '127.0.0.1', httpPort: 9464 });
  });

  it('refuses an empty worker.httpHost, which would listen on every interface', () => {
    expect(problemsOf(() => parseConfig({ ...validTree(), worker: { httpHost: '' } }, 'test.yaml', { MUSIC_API_KEY: 'k' }))).toEqual([expect.stringMatching(/^worker\.httpHost: must name a host or address/)]);
  });

  it('names FEEDSYNC_HTTP_PORT’s setting when its value is not a port', () => {
    expect(problemsOf(() => parseConfig(validTree(), 'test.yaml', { MUSIC_API_KEY: 'k', FEEDSYNC_HTTP_PORT: 'ninety' }))).toEqual([expect.stringMatching(/^worker\.httpPort: /)]);
  });

  it('reads numbers given as ${ENV} text', () => {
    const tree = validTree();
    tree.sources.music.timeoutMs = '${TIMEOUT_MS}';
    expect(parseConfig(tree, 'test.yaml', { MUSIC_API_KEY: 'k', TIMEOUT_MS: '2500' }).sources.music?.timeoutMs).toBe(2500);
  });

  it('rejects paging that would stop early or fail at run time, on the query it affects', () => {
    const tree = validTree();
    tree.sources.music.paging = { style: 'cursor', limit: 2000, window: { maxResults: 1000, param: 'startblock', field: 'blockNumber' } };
    const problems = problemsOf(() => parseConfig(tree, 'test.yaml', { MUSIC_API_KEY: 'k' }));
    expect(problems).toEqual(
      expect.arrayContaining([
        'jobs[0].queries[0].paging: style "cursor" needs cursorPath (where the next cursor sits in data)',
        'jobs[0].queries[0].paging: a result window slides page or offset paging, not cursor paging',
        'jobs[0].queries[0].paging: limit 2000 exceeds window.maxResults 1000',
      ]),
    );
  });

  it('leaves paging.totalPath unset unless given: its totals are then read from the default paths, and give no page count', () => {
    const config = parseConfig(validTree(), 'test.yaml', { MUSIC_API_KEY: 'k' });
    expect(config.sources.music?.paging.totalPath).toBeUndefined();
  });

  it('reads paging.totalPath given as one dot path as a list of that path', () => {
    const tree = validTree();
    tree.sources.music.paging = { totalPath: 'meta.count' };
    expect(parseConfig(tree, 'test.yaml', { MUSIC_API_KEY: 'k' }).sources.music?.paging.totalPath).toEqual(['meta.count']);
  });

  it('lets a query set paging.totalPath, keeping the other paging settings of its source', () => {
    const tree = validTree();
    tree.sources.music.paging = { style: 'offset' };
    tree.jobs[0]!.queries = [{ q: 'the', paging: { totalPath: ['meta.count', 'total'] } }];
    const config = parseConfig(tree, 'test.yaml', { MUSIC_API_KEY: 'k' });
    expect(resolveQuery(config, config.jobs[0]!, 0).paging).toMatchObject({ style: 'offset', totalPath: ['meta.count', 'total'] });
  });

  it('rejects a paging.totalPath that is not a dot path, with its path', () => {
    const tree = validTree();
    tree.sources.music.paging = { totalPath: ['total', 'meta count'] };
    expect(problemsOf(() => parseConfig(tree, 'test.yaml', { MUSIC_API_KEY: 'k' })).join('\n')).toMatch(/^sources\.music\.paging\.totalPath\b.*dot path/m);
  });

  it('accepts a 24-byte webhook secret, and an empty one as unsigned', () => {
    const tree = validTree();
    tree.webhook.secret = `whsec_${Buffer.alloc(24, 1).toString('base64')}`;
    expect(parseConfig(tree, 'test.yaml', { MUSIC_API_KEY: 'k' }).webhook?.secret).toBe(tree.webhook.secret);
    tree.webhook.secret = '';
    expect(parseConfig(tree, 'test.yaml', { MUSIC_API_KEY: 'k' }).webhook?.secret).toBeUndefined();
  });

  it('lets a short giveUpAfterMs cut the default retry schedule short, and keeps that schedule', () => {
    const tree = validTree();
    tree.webhook.giveUpAfterMs = 3_600_000;
    const webhook = parseConfig(tree, 'test.yaml', { MUSIC_API_KEY: 'k' }).webhook;
    expect(webhook?.retryScheduleMs).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
  });

  it('accepts a retry schedule that fits within giveUpAfterMs exactly, and int32 settings at their bound', () => {
    const tree = validTree();
    Object.assign(tree.webhook, { retryScheduleMs: [1_000, 2_000], giveUpAfterMs: 3_000 });
    tree.sources.music.timeoutMs = 2_147_483_647;
    expect(() => parseConfig(tree, 'test.yaml', { MUSIC_API_KEY: 'k' })).not.toThrow();
  });

  it('rejects unknown keys, which are usually typos', () => {
    const tree = validTree();
    tree.jobs[0]!.shedule = tree.jobs[0]!.schedule;
    expect(problemsOf(() => parseConfig(tree, 'test.yaml', { MUSIC_API_KEY: 'k' })).join('\n')).toMatch(/jobs\[0\]: .*shedule/);
  });
});

describe('loadConfig', () => {
  it('reads YAML and reports a syntax error with its line', async () => {
    const dir = await scratchDir('config');
    const file = join(dir, 'bad.yaml');
    await writeFile(file, 'sources:\n  music: [unclosed\n');
    await expect(loadConfig(file, {})).rejects.toThrow(/line \d+:\d+/);
  });

  it('reads a TypeScript module with a typed default export', async () => {
    const dir = await scratchDir('config');
    const file = join(dir, 'feedsync.config.ts');
    const tree = JSON.stringify(validTree());
    await writeFile(file, `type Tree = Record<string, unknown>;\nconst config: Tree = ${tree};\nexport default config satisfies Tree;\n`);
    const config = await loadConfig(file, { MUSIC_API_KEY: 'k-ts' });
    expect(config.sources.music?.auth).toEqual({ type: 'bearer', value: 'k-ts' });
  });

  it('refuses a number a JS number cannot keep as written (too many digits, or written back with an exponent), naming where it is, and reads it quoted as written', async () => {
    const dir = await scratchDir('config');
    const tree = validTree();
    tree.jobs[0]!.queries = [{ q: 'the', params: { tokenid: '<tokenid>', page: '<page>' } }];
    const file = join(dir, 'numbers.yaml');
    await writeFile(file, JSON.stringify(tree).replace('"<tokenid>"', '12345678901234567890123').replace('"<page>"', '2'));
    await expect(loadConfig(file, { MUSIC_API_KEY: 'k' })).rejects.toThrow(
      'jobs[0].queries[0].params.tokenid: the number 12345678901234567890123 cannot be kept as written (it would be read as 1.2345678901234568e+22); quote it ("12345678901234567890123") to use it as written',
    );
    await writeFile(file, JSON.stringify(tree).replace('"<tokenid>"', '1000000000000000000000').replace('"<page>"', '2'));
    await expect(loadConfig(file, { MUSIC_API_KEY: 'k' })).rejects.toThrow('the number 1000000000000000000000 cannot be kept as written (it would be read as 1e+21)');
    await writeFile(file, JSON.stringify(tree).replace('<tokenid>', '12345678901234567890123').replace('"<page>"', '2'));
    const config = await loadConfig(file, { MUSIC_API_KEY: 'k' });
    expect(config.jobs[0]!.queries[0]!.params).toEqual({ tokenid: '12345678901234567890123', page: 2 });
  });

  it('names a missing file', async () => {
    await expect(loadConfig('/nonexistent/feedsync.yaml', {})).rejects.toThrow(/file not found/);
  });
});
