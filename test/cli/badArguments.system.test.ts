import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { scratchDir } from '../support/scratchDir.js';
import { badArgumentRows as rows } from './badArgumentRows.js';

/** Where the rows' files live: a valid config (commands that read one before their arguments fail) and a directory. */
let dir: string;
let configFile: string;

beforeAll(async () => {
  dir = await scratchDir('bad-arguments');
  configFile = join(dir, 'feedsync.yaml');
  await writeFile(
    configFile,
    JSON.stringify({
      sources: { music: { baseUrl: 'http://127.0.0.1:1', apiKey: 'k-music-0123', path: '/2.0/', rateLimit: { max: 5 } } },
      jobs: [{ name: 'artists', source: 'music', records: { path: 'results', kind: 'artist' }, queries: [{ q: 'a' }] }],
    }),
  );
  await mkdir(join(dir, 'a-directory'));
});

/** A row's text with its placeholders filled in; `$databaseUrlAs:user:password` is the test server's URL as that user. */
function placed(text: string): string {
  const as = /^\$(databaseUrl|redisUrl)As:([^:]+):(.+)$/.exec(text);
  if (as) {
    const url = new URL(inject(as[1] as 'databaseUrl' | 'redisUrl'));
    url.username = as[2]!;
    url.password = as[3]!;
    return url.href;
  }
  return text.replace('$config', configFile).replace('$dir', dir).replace('$databaseUrl', inject('databaseUrl')).replace('$redisUrl', inject('redisUrl'));
}

/** Runs the CLI with `env` over this process's (undefined: unset); its exit code and stderr. */
function feedsync(args: string[], env: Record<string, string | undefined>): Promise<{ code: number | null; stderr: string }> {
  const merged: Record<string, string | undefined> = { ...process.env, LOG_LEVEL: 'warn', ...env };
  const defined = Object.fromEntries(Object.entries(merged).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const child = spawn('node', ['--import', 'tsx', 'src/cli/main.ts', ...args], { env: defined, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stderr })));
}

describe('bad command lines', () => {
  it('holds at least 20 of them', () => {
    expect(rows.length).toBeGreaterThanOrEqual(20);
  });

  it.each(rows)('$what: names $names and exits non-zero', async (row) => {
    const args = row.args.map(placed);
    const env = Object.fromEntries(Object.entries(row.env ?? {}).map(([name, value]) => [name, value === undefined ? undefined : placed(value)]));
    const { code, stderr } = await feedsync(args, env);
    expect(code, stderr).not.toBe(0);
    expect(code, stderr).not.toBeNull();
    expect(stderr).toContain(row.names);
    expect(stderr).toMatch(row.message);
    if (row.secret) expect(stderr).not.toContain(row.secret);
    if (row.never) expect(stderr).not.toContain(row.never);
  });
});
