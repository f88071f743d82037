import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../src/config/schema.js';
import { startFeedsync, writeConfig } from '../support/feedsyncProcess.js';
import { scratchDir } from '../support/scratchDir.js';

/** A valid config of two sources and two jobs, one with two queries; nothing it names is reached. */
const config: ConfigInput = {
  sources: {
    music: { baseUrl: 'http://127.0.0.1:1', apiKey: 'k-music-0123', path: '/2.0/' },
    explorer: { baseUrl: 'http://127.0.0.1:1', apiKey: 'k-explorer-0123', path: '/api' },
  },
  jobs: [
    { name: 'artists', source: 'music', records: { path: 'results', kind: 'artist' }, queries: [{ q: 'a' }, { q: 'b' }] },
    { name: 'blocks', source: 'explorer', records: { path: 'result', kind: 'block' }, queries: [{ q: '1' }] },
  ],
  webhook: { baseUrl: 'http://127.0.0.1:1', uuid: '6f1c2d4e-8a9b-4c3d-9e2f-1a2b3c4d5e6f' },
};

/** Runs the CLI; no command here gets as far as Redis or Postgres, whose variables point nowhere. */
async function feedsync(...args: string[]) {
  const process = startFeedsync(args, { REDIS_URL: 'redis://127.0.0.1:1', DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', LOG_LEVEL: 'warn' });
  const { code } = await process.exited;
  return { code, output: process.output() };
}

describe('feedsync config errors', () => {
  it('config check lists every problem with its path and exits non-zero', async () => {
    const dir = await scratchDir('cli');
    const file = join(dir, 'bad.yaml');
    await writeFile(file, 'sources: {}\njobs:\n  - name: x\n    source: nope\n    schedule: { cron: "61 * * * *" }\n    queries: []\nwebhook: { baseUrl: "ftp://x", uuid: "123" }\n');
    const { code, output } = await feedsync('config', 'check', file);
    expect(code).toBe(1);
    for (const expected of ['jobs[0].source: "nope" is not a configured source', 'jobs[0].schedule.cron: "61 * * * *" is not a valid cron expression', 'jobs[0].queries: needs at least one query', 'webhook.uuid: must be a UUID', 'webhook.baseUrl: must be an http(s) URL']) {
      expect(output).toContain(expected);
    }
  });

  it('config check accepts a valid file', async () => {
    const { code, output } = await feedsync('config', 'check', await writeConfig(config));
    expect(code, output).toBe(0);
    expect(output).toContain('ok (2 sources, 2 jobs, 3 queries)');
  });

  it('config check takes its file as --config, as every other command does', async () => {
    const { code, output } = await feedsync('config', 'check', '--config', await writeConfig(config));
    expect(code, output).toBe(0);
    expect(output).toContain('ok (2 sources, 2 jobs, 3 queries)');
  });

  it('config check refuses two different files, one as an argument and one as --config, naming both', async () => {
    const [first, second] = [await writeConfig(config), await writeConfig(config)];
    const { code, output } = await feedsync('config', 'check', first, '--config', second);
    expect(code).not.toBe(0);
    expect(output).toContain(`config check takes one config file, given two: ${first} and --config ${second}`);
  });

  it('reports an unset variable once, by its path, not again as the empty value it leaves', async () => {
    const file = await writeConfig({ ...config, webhook: { ...config.webhook!, baseUrl: '${STATUS_TEST_WEBHOOK_URL}' } });
    const { code, output } = await feedsync('enqueue', 'artists', '--config', file);
    expect(code).not.toBe(0);
    expect(output).toContain('webhook.baseUrl: environment variable STATUS_TEST_WEBHOOK_URL is not set');
    expect(output.match(/webhook\.baseUrl/g)).toHaveLength(1);
  });
});
