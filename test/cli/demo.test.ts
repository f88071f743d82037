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
    const runs = /queued (\d+) runs of (\d+) jobs/.exec(output);
    expect(Number(runs?.[1])).toBeGreaterThanOrEqual(17);
    expect(output).toContain(`notices posted to`);
    expect(output).toContain(`: ${runs?.[1]} (${runs?.[1]} with a valid Standard Webhooks signature)`);
    for (const kind of ['artist', 'album', 'track', 'lyrics', 'similar_artist', 'tag_top_artist', 'tag_top_track', 'listen', 'recommendation', 'transaction', 'block', 'contract']) {
      expect(output).toMatch(new RegExp(`^(music|explorer)\\s+${kind}\\s+[1-9]\\d*$`, 'm'));
    }
    expect(output).toContain('demo finished: every run succeeded and every notice was delivered');
  }, 120_000);
});
