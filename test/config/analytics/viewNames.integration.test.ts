import { describe, expect, it } from 'vitest';
import { isFeedsyncRelation } from '../../../src/config/analytics/viewNames.js';
import { interpolateEnv } from '../../../src/config/loading/interpolateEnv.js';
import { createTestDatabase } from '../../support/testDatabase.js';

describe('feedsync relation names', () => {
  it("cover every table, index and sequence feedsync's migrations make in schema public", async () => {
    const database = await createTestDatabase();
    try {
      const { rows } = await database.pool.query<{ relname: string }>(`select relname from pg_class where relnamespace = 'public'::regnamespace`);
      expect(rows.length).toBeGreaterThan(10);
      expect(rows.map((row) => row.relname).filter((name) => !isFeedsyncRelation(name))).toEqual([]);
    } finally {
      await database.drop();
    }
  });
});

describe('a default that holds a reference', () => {
  it('takes the inner variable when the outer one is unset, with no problem', () => {
    const problems: never[] = [];
    expect(interpolateEnv('${NOPE:-${MUSIC_API_KEY}}', { MUSIC_API_KEY: 'k-1' }, problems)).toBe('k-1');
    expect(problems).toEqual([]);
  });
});
