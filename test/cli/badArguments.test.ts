import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { scratchDir } from '../support/scratchDir.js';

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

/** Runs the CLI with `env` over this process's (undefined: unset); its exit code and stderr. */
function feedsync(args: string[], env: Record<string, string | undefined>): Promise<{ code: number | null; stderr: string }> {
  const merged: Record<string, string | undefined> = { ...process.env, LOG_LEVEL: 'warn', ...env };
  const defined = Object.fromEntries(Object.entries(merged).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const child = spawn('node', ['--import', 'tsx', 'src/cli/main.ts', ...args], { env: defined, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stderr })));
}

interface Row {
  what: string;
  /** `$config` and `$dir` stand for the valid config file and the rows' directory. */
  args: string[];
  env?: Record<string, string | undefined>;
  /** The flag, argument or variable the message must name. */
  names: string;
  message: RegExp;
  /** Text the message must never hold (a password). */
  secret?: string;
}

const NO_SERVERS = { DATABASE_URL: 'postgres://127.0.0.1:1/none', REDIS_URL: 'redis://127.0.0.1:1' };

const rows: Row[] = [
  { what: 'a query index that is a word', args: ['run', 'x', '--query', 'two'], names: '--query', message: /--query must be an integer from 0 to 2147483647, got "two"/ },
  { what: 'a negative query index', args: ['run', 'x', '--query', '-1'], names: '--query', message: /from 0 to 2147483647, got "-1"/ },
  { what: 'a query index past int32', args: ['run', 'x', '--query', '2147483648'], names: '--query', message: /got "2147483648"/ },
  { what: 'a fractional query index', args: ['run', 'x', '--query', '1.5'], names: '--query', message: /must be an integer/ },
  { what: 'a query index in exponent form', args: ['enqueue', 'x', '--query', '1e3'], names: '--query', message: /must be an integer/ },
  { what: 'a query flag without its value', args: ['run', 'x', '--query'], names: '--query', message: /argument missing/ },
  { what: 'a wait timeout that overflows a timer', args: ['enqueue', 'x', '--wait', '--timeout', '3000000'], names: '--timeout', message: /--timeout must be an integer from 0 to 2147483, got "3000000"/ },
  { what: 'a wait timeout that is a word', args: ['enqueue', 'x', '--wait', '--timeout', 'soon'], names: '--timeout', message: /got "soon"/ },
  { what: 'a status limit of 20 digits', args: ['status', '--limit', '99999999999999999999'], names: '--limit', message: /--limit must be an integer from 0 to 2147483647/ },
  { what: 'a negative status limit', args: ['status', '--limit', '-5'], names: '--limit', message: /got "-5"/ },
  { what: 'a notices limit of 20 digits', args: ['notices', 'list', '--limit', '99999999999999999999'], names: '--limit', message: /from 0 to 2147483647/ },
  { what: 'a hexadecimal notices limit', args: ['notices', '--limit', '0x10'], names: '--limit', message: /got "0x10"/ },
  { what: 'a simulator port past the last usable', args: ['simulate', '--port', '70000'], names: '--port', message: /--port must be an integer from 0 to 65532/ },
  { what: 'a simulator seed past 32 bits', args: ['simulate', '--seed', '4294967296'], names: '--seed', message: /from 0 to 4294967295/ },
  { what: 'a block interval that overflows a timer', args: ['simulate', '--block-interval-ms', '3000000000'], names: '--block-interval-ms', message: /from 0 to 2147483647/ },
  { what: 'a fault latency that overflows a timer', args: ['simulate', '--fault-latency-ms', '1e12'], names: '--fault-latency-ms', message: /from 0 to 2147483647/ },
  { what: 'a fault share above 1', args: ['simulate', '--fault-server-error', '2'], names: '--fault-server-error', message: /from 0 to 1/ },
  { what: 'no tags', args: ['simulate', '--tags', '0'], names: '--tags', message: /from 1 to 65535/ },
  { what: 'more artists than the simulator holds', args: ['simulate', '--artists', '20000000'], names: '--artists', message: /music\.artists/ },
  { what: 'an unknown Retry-After form', args: ['simulate', '--fault-retry-after-form', 'minutes'], names: '--fault-retry-after-form', message: /seconds or http-date/ },
  { what: 'an unknown fault endpoint', args: ['simulate', '--fault-endpoints', 'nope'], names: '--fault-endpoints', message: /comma-separated list/ },
  { what: 'an unknown option', args: ['run', 'x', '--frobnicate'], names: '--frobnicate', message: /unknown option/ },
  { what: 'a missing job name', args: ['run'], names: "'job'", message: /missing required argument/ },
  { what: 'a config that is a directory', args: ['config', 'check', '$dir/a-directory'], names: 'a-directory', message: /is a directory/ },
  { what: 'a config file that is not there', args: ['run', 'artists', '--config', '$dir/nowhere.yaml'], names: 'nowhere.yaml', message: /file not found/ },
  { what: 'DATABASE_URL that is no URL', args: ['migrate'], env: { DATABASE_URL: 'garbage' }, names: 'DATABASE_URL', message: /DATABASE_URL is not a URL/ },
  { what: 'DATABASE_URL set to the empty string', args: ['migrate'], env: { DATABASE_URL: '' }, names: 'DATABASE_URL', message: /DATABASE_URL is empty/ },
  { what: 'DATABASE_URL not set', args: ['migrate'], env: { DATABASE_URL: undefined }, names: 'DATABASE_URL', message: /DATABASE_URL is not set/ },
  { what: 'DATABASE_URL of another database', args: ['migrate'], env: { DATABASE_URL: 'mysql://app:s3cretpw@db/app' }, names: 'DATABASE_URL', message: /must be a postgres:\/\/ or postgresql:\/\/ URL/, secret: 's3cretpw' },
  { what: 'DATABASE_URL where nothing listens', args: ['migrate'], env: { DATABASE_URL: 'postgres://app:s3cretpw@127.0.0.1:1/app' }, names: 'DATABASE_URL', message: /could not connect to Postgres at 127\.0\.0\.1:1 \(DATABASE_URL\): ECONNREFUSED/, secret: 's3cretpw' },
  { what: 'REDIS_URL of another scheme', args: ['enqueue', 'artists', '--config', '$config'], env: { REDIS_URL: 'http://127.0.0.1:6379' }, names: 'REDIS_URL', message: /REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/ },
  { what: 'REDIS_URL where nothing listens', args: ['enqueue', 'artists', '--config', '$config'], env: { REDIS_URL: 'redis://127.0.0.1:1' }, names: 'REDIS_URL', message: /could not connect to Redis at 127\.0\.0\.1:1 \(REDIS_URL\): ECONNREFUSED/ },
  { what: 'an optional REDIS_URL that is no URL', args: ['run', 'artists', '--config', '$config'], env: { ...NO_SERVERS, REDIS_URL: 'garbage' }, names: 'REDIS_URL', message: /REDIS_URL is not a URL/ },
];

describe('bad command lines', () => {
  it('holds at least 20 of them', () => {
    expect(rows.length).toBeGreaterThanOrEqual(20);
  });

  it.each(rows)('$what: names $names and exits non-zero', async (row) => {
    const args = row.args.map((arg) => arg.replace('$config', configFile).replace('$dir', dir));
    const { code, stderr } = await feedsync(args, row.env ?? {});
    expect(code, stderr).not.toBe(0);
    expect(code, stderr).not.toBeNull();
    expect(stderr).toContain(row.names);
    expect(stderr).toMatch(row.message);
    if (row.secret) expect(stderr).not.toContain(row.secret);
  });
});
