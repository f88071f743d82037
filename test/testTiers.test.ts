import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import config from '../vitest.config.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TEST = join(ROOT, 'test');
const THIS_FILE = fileURLToPath(import.meta.url);

/**
 * A test file's tier is in its name: `*.system.test.ts` spawns processes (feedsync, the built
 * package, Chromium, servers it stops), `*.integration.test.ts` uses real Postgres, Redis or HTTP
 * servers in-process, and any other `*.test.ts` is a unit test, run with no server at all.
 */
type Tier = 'unit' | 'integration' | 'system';
const tierOf = (file: string): Tier => (file.endsWith('.system.test.ts') ? 'system' : file.endsWith('.integration.test.ts') ? 'integration' : 'unit');

/** Support helpers that need the servers the integration and system tiers' global setup starts. */
const SERVER_KEYS = /\binject\(\s*'(?:databaseUrl|redisUrl|templateDatabase)'/;
/** A value import (not `import type`) of a module that talks to a server or starts one. */
const SERVER_IMPORT = /^import\s+(?!type\b)[^;]*?from\s+'(?:pg|ioredis|bullmq|playwright-core|node:http|node:https|node:net)'/m;
/** Calls that start a server in-process. */
const SERVER_CALL = /\b(?:startSimulator|startLocalApi|startListApi|startTestReceiver|startHoldingProxy|createTestDatabase|givenRunStore|givenListApi|openStorage|createServer)\s*\(/;
/** What only the system tier may do: spawn a process, drive Chromium, start servers of its own. */
const SYSTEM_ONLY = /^import\s+(?!type\b)[^;]*?from\s+'(?:node:child_process|playwright-core)'|\b(?:startFeedsync|startedFeedsync|enqueueByCli|launchChromium|ensureBuilt|ensureLocalStack|startPostgresServer|startRedisServer)\s*\(/m;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesUnder(path);
    return [path];
  });
}

const source = (file: string): string => readFileSync(file, 'utf8');
const RELATIVE_IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

/** A file and every file under test/ it imports (type-only imports included: they cost nothing to follow). */
function withTestImports(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const [, specifier] of source(file).matchAll(RELATIVE_IMPORT)) {
    const target = resolve(dirname(file), specifier!.replace(/\.js$/, '.ts'));
    if (target.startsWith(TEST + sep)) withTestImports(target, seen);
  }
  return seen;
}

const name = (file: string): string => relative(ROOT, file).split(sep).join('/');
const testFiles = filesUnder(TEST).filter((file) => file.endsWith('.test.ts'));

describe('test tiers', () => {
  it('has every test-like file under test/ named *.test.ts, so one tier runs it', () => {
    const stray = filesUnder(TEST).filter((file) => /\.(?:test|spec)\.[cm]?[jt]sx?$/.test(file) && !file.endsWith('.test.ts'));
    expect(stray.map(name)).toEqual([]);
    const outside = filesUnder(join(ROOT, 'src')).filter((file) => /\.(?:test|spec)\.[cm]?[jt]sx?$/.test(file));
    expect(outside.map(name)).toEqual([]);
  });

  it('has one vitest project a tier, each taking the files its name marks', () => {
    const projects = (config.test?.projects ?? []).map((project) => {
      const test = (project as { test: { name: string; include: string[]; exclude?: string[]; globalSetup?: string[] } }).test;
      return { name: test.name, include: test.include, exclude: test.exclude?.filter((glob) => glob.startsWith('test/')), globalSetup: test.globalSetup };
    });
    expect(projects.map((project) => [project.name, project.include, project.exclude])).toEqual([
      ['unit', ['test/**/*.test.ts'], ['test/**/*.{integration,system}.test.ts']],
      ['integration', ['test/**/*.integration.test.ts'], undefined],
      ['system', ['test/**/*.system.test.ts'], undefined],
    ]);
    // Only the server tiers start Redis and Postgres.
    expect(projects.map((project) => project.globalSetup?.includes('test/support/globalSetup.ts'))).toEqual([false, true, true]);
  });

  it('keeps every unit test off inject() and off anything that needs or starts a server', () => {
    const offenders = testFiles
      .filter((file) => tierOf(file) === 'unit')
      .flatMap((file) =>
        [...withTestImports(file)].flatMap((used) => {
          const text = source(used);
          const why = [
            used === file && used !== THIS_FILE && /\binject\s*\(/.test(text) && 'calls inject()',
            SERVER_KEYS.test(text) && 'injects a server',
            SERVER_IMPORT.test(text) && 'imports a server or process module',
            SERVER_CALL.test(text) && 'starts a server or a database',
          ].filter(Boolean);
          return why.length === 0 ? [] : [`${name(file)}${used === file ? '' : ` (through ${name(used)})`}: ${why.join(', ')}`];
        }),
      );
    expect(offenders).toEqual([]);
  });

  it('keeps every test that spawns a process, drives Chromium or starts servers of its own in the system tier', () => {
    const offenders = testFiles
      .filter((file) => tierOf(file) !== 'system')
      .filter((file) => SYSTEM_ONLY.test(source(file)))
      .map(name);
    expect(offenders).toEqual([]);
  });

  it('keeps the unit tier big enough to be worth running alone', () => {
    expect(testFiles.filter((file) => tierOf(file) === 'unit').length).toBeGreaterThan(50);
  });
});
