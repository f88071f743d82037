import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { startFeedsync } from '../support/feedsyncProcess.js';
import { createTestDatabase } from '../support/testDatabase.js';

/** `feedsync demo <args>` on a database and Redis prefix of its own: its exit code and what it printed. */
async function demo(args: string[]): Promise<{ code: number | null; output: string }> {
  const database = await createTestDatabase();
  const process = startFeedsync(['demo', ...args], { REDIS_URL: inject('redisUrl'), DATABASE_URL: database.url, FEEDSYNC_PREFIX: `test-${randomBytes(4).toString('hex')}`, LOG_LEVEL: 'warn' });
  const { code } = await process.exited.finally(() => database.drop());
  return { code, output: process.output() };
}

/** The rows of the job tick table: from its header to the blank line after it. */
const tickRows = (output: string) => output.split('\n\njob ticks')[1]!.split('\n\n')[0]!.split('\n').slice(3);

describe('feedsync demo', () => {
  let code: number | null;
  let output: string;
  beforeAll(async () => {
    ({ code, output } = await demo([]));
  }, 120_000);

  it('syncs every query of the example config through the worker and delivers every signed notice', () => {
    expect(code, output).toBe(0);
    const waves = [...output.matchAll(/queued (\d+) runs in (\d+) job ticks/g)];
    // The jobs that fan out over stored records (top albums of every stored artist) go second.
    expect(waves).toHaveLength(2);
    expect(waves[1]![0]).toMatch(/runs in 1 job ticks/);
    expect(Number(waves[1]![1])).toBeGreaterThan(100);
    expect(Number(waves[0]![1])).toBeGreaterThanOrEqual(22);
    // One notice per job tick, the example config's default.
    const ticks = String(waveTicks(output));
    expect(output).toContain(`: ${ticks} (${ticks} with a valid Standard Webhooks signature)`);
    expect(output).toContain('demo finished: every run succeeded and every notice was delivered');
  });

  it('sums up in at most 80 lines: a line per job tick, its runs, pages, records and time, then the failures', () => {
    expect(output.trimEnd().split('\n').length).toBeLessThanOrEqual(80);
    expect(tickRows(output)).toHaveLength(waveTicks(output));
    for (const row of tickRows(output)) expect(row).toMatch(/^[a-z-]+\s+succeeded\s+(\d+)\s+\1\s+0\s+0\s+0\s+[1-9]\d*\s+\d+\s+\d+\s+\d+\s+\d+\.\d s$/);
    expect(output).toContain('\nno run failed or ended partial\n');
  });

  it('stores records of every kind of the example config, each beside its typed view', () => {
    for (const kind of ['artist', 'album', 'track', 'lyrics', 'similar_artist', 'tag_top_artist', 'tag_top_track', 'listen', 'recommendation', 'artist_top_album', 'transaction', 'block', 'contract']) {
      expect(output).toMatch(new RegExp(`^(music|explorer)\\s+${kind}\\s+[1-9]\\d*(\\s|$)`, 'm'));
    }
    expect(output).toMatch(/^music\s+listen\s+(\d+)\s+analytics\.listen\s+5\s+\1$/m);
  });
});

/** How many job ticks the demo queued. */
function waveTicks(output: string): number {
  return [...output.matchAll(/queued \d+ runs in (\d+) job ticks/g)].reduce((sum, wave) => sum + Number(wave[1]), 0);
}

describe('feedsync demo --runs', () => {
  it('also lists every run, with its fan-out value', async () => {
    const { code, output } = await demo(['--runs']);
    expect(code, output).toBe(0);
    for (const user of ['us-0001', 'us-0002', 'us-0003', 'us-0004', 'us-0005']) expect(output).toMatch(new RegExp(`\\susers-recent-tracks\\s+0\\s+${user}\\s+succeeded\\s`));
    expect(output.match(/\sartist-top-albums\s+0\s+ar-\d+\s+succeeded\s/g)?.length).toBeGreaterThan(100);
  }, 120_000);
});
