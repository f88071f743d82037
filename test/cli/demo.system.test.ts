import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { startFeedsync } from '../support/feedsyncProcess.js';
import { createTestDatabase } from '../support/testDatabase.js';

describe('feedsync demo', () => {
  it('syncs every query of the example config through the worker and delivers every signed notice', async () => {
    const database = await createTestDatabase();
    const demo = startFeedsync(['demo'], { REDIS_URL: inject('redisUrl'), DATABASE_URL: database.url, FEEDSYNC_PREFIX: `test-${randomBytes(4).toString('hex')}`, LOG_LEVEL: 'warn' });
    const { code } = await demo.exited.finally(() => database.drop());
    const output = demo.output();
    expect(code, output).toBe(0);
    const waves = [...output.matchAll(/queued (\d+) runs in (\d+) job ticks/g)];
    // The jobs that fan out over stored records (top albums of every stored artist) go second.
    expect(waves).toHaveLength(2);
    expect(waves[1]![0]).toMatch(/runs in 1 job ticks/);
    expect(Number(waves[1]![1])).toBeGreaterThan(100);
    expect(Number(waves[0]![1])).toBeGreaterThanOrEqual(22);
    // One notice per job tick, the example config's default.
    const ticks = String(waves.reduce((sum, wave) => sum + Number(wave[2]), 0));
    expect(output).toContain(`notices posted to`);
    expect(output).toContain(`: ${ticks} (${ticks} with a valid Standard Webhooks signature)`);
    expect(output.match(/ tick [0-9a-f-]{36}: succeeded;/g)).toHaveLength(Number(ticks));
    for (const kind of ['artist', 'album', 'track', 'lyrics', 'similar_artist', 'tag_top_artist', 'tag_top_track', 'listen', 'recommendation', 'artist_top_album', 'transaction', 'block', 'contract']) {
      expect(output).toMatch(new RegExp(`^(music|explorer)\\s+${kind}\\s+[1-9]\\d*$`, 'm'));
    }
    expect(output).toContain('demo finished: every run succeeded and every notice was delivered');
  }, 120_000);
});
